"""The fish rules text teaches the whole game, with every ruling, in each shipped language."""

from __future__ import annotations

import pytest

from engine.fish import GAME
from i18n import using
from tests.engine.rules_checks import TRANSLATED, assert_whole_translation


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_line_and_number_of_the_rules_is_translated(language: str) -> None:
    english = GAME.rules_text()
    with using(language):
        assert_whole_translation(english, GAME.rules_text())


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_rules_open_with_the_title_the_language_uses(language: str) -> None:
    with using(language):
        text = GAME.rules_text()
        title = GAME.title
    assert text.startswith(f"**{title}**")


def test_the_rules_read_the_penguins_per_player_count_from_data() -> None:
    text = GAME.rules_text()
    assert "(2 players: 4 each, 3 players: 3 each, 4 players: 2 each)" in text
    assert "60 hexes in rows of 7 and 8, labelled A1-A7, B1-B8 ... H1-H8" in text
