"""Recognise a turn ping of ours in any language, and nothing else the bot posts after a board."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from i18n import LANGUAGES, using
from ui.pings import is_turn_ping, your_turn

ANA, BO = 157821188571345716, 157821188571345717


def message(content: str, *, components: int = 0, attachments: int = 0) -> Any:
    """Return a stand-in for a channel message: its text, its mentions in order, its menus and files."""
    mentions = [ANA, BO] if f"<@{ANA}>" in content else []
    return SimpleNamespace(
        content=content, raw_mentions=mentions, components=[object()] * components, attachments=[object()] * attachments
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_ping_is_recognised_in_every_language_and_a_board_or_a_notice_is_not(language: str) -> None:
    with using(language):
        ping = f"Leaders: Ana places their Leader.\n{your_turn([f'<@{ANA}>', f'<@{BO}>'])}"
        assert is_turn_ping(message(ping))
        assert not is_turn_ping(message(ping, components=1)), "a board that pings is no stale ping"
        assert not is_turn_ping(message(ping, attachments=1))
        assert not is_turn_ping(message(f"<@{ANA}> <@{BO}> I cannot DM you: open your DMs."))
        assert not is_turn_ping(message(your_turn(["Bot 1 (easy)"])))
