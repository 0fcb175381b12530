"""Check that messages name slash commands as each reader's client does: a mention once synced, else the local path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from i18n import _, using
from ui.mentions import command, remember
from ui.records import NO_GAMES


@pytest.fixture
def synced() -> Iterator[None]:
    remember({"game": 42, "tank": 7})
    yield
    remember({})


def test_before_the_ids_are_known_a_command_reads_as_its_path_in_the_readers_language() -> None:
    remember({})
    assert command("game new", rated="false") == "`/game new rated:false`"
    with using("de"):
        assert command("game new", rated="false") == "`/spiel neu gewertet:false`"
        assert command("tank discard") == "`/tank abwerfen`"
    with using("ja"):
        assert command("game hand") == "`/ゲーム 手札`"


@pytest.mark.usefixtures("synced")
def test_once_synced_a_command_is_a_mention_each_client_shows_in_its_own_language() -> None:
    assert command("game new") == "</game new:42>"
    with using("es"):
        assert command("game new", rated="false") == "</game new:42> `valorada:false`"
        assert command("tank discard") == "</tank discard:7>"
        assert command("fish move") == "`/peces mover`"  # not synced: its path


@pytest.mark.usefixtures("synced")
def test_a_message_keeps_its_named_placeholder_for_the_command() -> None:
    with using("pt_BR"):
        text = _(NO_GAMES, command=command("game new"))
    assert "</game new:42>" in text and "/game new`" not in text
