"""The flippers rules text teaches the whole game, with every ruling, in each shipped language."""

from __future__ import annotations

import pytest

from engine.flippers import GAME
from engine.flippers.cards import DATA, POWER_NAMES
from i18n import pgettext, using
from tests.engine.rules_checks import TRANSLATED, assert_whole_translation


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_line_and_number_of_the_rules_is_translated(language: str) -> None:
    english = GAME.rules_text()
    with using(language):
        assert_whole_translation(english, GAME.rules_text())


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_rules_name_every_power_and_food_card_as_the_language_does(language: str) -> None:
    with using(language):
        text = GAME.rules_text()
        powers = [pgettext("power name", name) for name in POWER_NAMES.values()]
        foods = [pgettext("Food card name", food["name"]) for food in DATA["food_cards"]]
        title = GAME.title
    assert text.startswith(f"**{title}**")
    missing = [name for name in powers + foods if name not in text]
    assert not missing, missing


def test_the_rulebook_example_counts_its_points_from_data() -> None:
    text = GAME.rules_text()
    assert "B gains 1 point from the supply (7 points)" in text
    assert "gives A 1 point (7 points)" in text
    assert "gives A another point (8 points)" in text
