"""The rules of every game, in every shipped language, fit Discord's embed limits and arrive whole."""

from __future__ import annotations

import pytest

from engine.registry import get
from i18n import LANGUAGES, using
from ui.text import EMBED_DESCRIPTION, EMBED_TITLE, EMBED_TOTAL, EMBEDS_PER_MESSAGE, embed_messages


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("kind", ["fish", "tank", "flippers"])
def test_rules_in_every_language_split_into_embeds_within_discords_limits(kind: str, language: str) -> None:
    with using(language):
        game = get(kind)
        text = game.rules_text()
        messages = embed_messages(f"{game.title}: rules", text)
    embeds = [embed for message in messages for embed in message]
    assert [embed.description for embed in embeds if not embed.description] == []
    assert all(len(embed.description or "") <= EMBED_DESCRIPTION for embed in embeds)
    assert all(len(embed.title or "") <= EMBED_TITLE for embed in embeds)
    for message in messages:
        assert len(message) <= EMBEDS_PER_MESSAGE
        assert sum(len(embed.title or "") + len(embed.description or "") for embed in message) <= EMBED_TOTAL
    assert "\n".join(embed.description or "" for embed in embeds).split() == text.split()
