"""The tank rules text teaches the whole game, with every ruling, in each shipped language."""

from __future__ import annotations

import pytest

from engine.tank import GAME
from engine.tank.data import RULES
from i18n import npgettext, pgettext, using
from tests.engine.rules_checks import TRANSLATED, assert_whole_translation


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_line_and_number_of_the_rules_is_translated(language: str) -> None:
    english = GAME.rules_text()
    with using(language):
        assert_whole_translation(english, GAME.rules_text())


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_rules_name_every_fish_card_and_goal_as_the_language_does(language: str) -> None:
    with using(language):
        text = GAME.rules_text()
        names = [npgettext("fish kind", k.name, k.plural, 1) for k in RULES.fish]
        names.append(npgettext("fish kind", "Gourami", "Gouramis", 2))
        names.append(pgettext("Tank card name", RULES.kind("chest").name))
        names += [pgettext("goal name", g.name) for g in RULES.goals]
        title = GAME.title
    assert text.startswith(f"**{title}**")
    missing = [name for name in names if name not in text]
    assert not missing, missing


def test_scoring_rules_read_from_data_stay_in_english_words() -> None:
    text = GAME.rules_text()
    assert "Neon Tetra: 1, 3, 6, 10, 15, 21 for 1, 2, 3, 4, 5, 6+ cards" in text
    assert "Discus: most 10, second most 5 (compared at the end)" in text
    assert "Guppy, Discus, Angelfish, Gourami and Molly 7 unmarked, 1 3+, 3 4+, 3 5" in text
