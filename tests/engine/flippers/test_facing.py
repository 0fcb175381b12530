"""A facing reads the same in pictures, menus, typed input and refusals: each language's own compass letters."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.names import compass_letter, compass_letters, direction, facing_code
from engine.flippers.table import DIRECTIONS
from i18n import using
from tests.engine.flippers.test_illegal import ready

LANGUAGES = ("en", "de", "es", "ja", "pt_BR")
LETTERS = {"en": "NESW", "de": "NOSW", "es": "NESO", "ja": "北東南西", "pt_BR": "NLSO"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_types_its_own_letters_its_words_and_the_codes(language: str) -> None:
    with using(language):
        assert "".join(compass_letter(d) for d in DIRECTIONS) == LETTERS[language]
        for d in DIRECTIONS:
            assert facing_code(compass_letter(d)) == d
            assert facing_code(compass_letter(d).lower()) == d
            assert facing_code(f" {direction(d).upper()} ") == d
            assert facing_code(d) == d and facing_code(d.lower()) == d
        assert facing_code("up") is None and facing_code("") is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_letter_of_a_language_is_the_code_of_another_direction(language: str) -> None:
    with using(language):
        letters = {d: compass_letter(d).upper() for d in DIRECTIONS}
    assert all(letter == d or letter not in DIRECTIONS for d, letter in letters.items())
    assert len(set(letters.values())) == 4


@pytest.mark.parametrize(("language", "meant"), [("de", "E"), ("es", "W"), ("pt_BR", "W")])
def test_o_is_east_in_german_and_west_in_spanish_and_portuguese(language: str, meant: str) -> None:
    state = ready()
    with using(language):
        GAME.apply(state, 0, {"type": "play", "card": "c-flip", "cell": "N14", "facing": "O"})
    assert state.facing["c-flip"] == meant


def test_a_refused_facing_lists_the_letters_the_language_uses() -> None:
    with using("de"), pytest.raises(IllegalAction, match="mit N, O, S oder W an"):
        GAME.apply(ready(), 0, {"type": "play", "card": "c-flip", "cell": "N14", "facing": "X"})
    with using("es"):
        assert compass_letters() == "N, E, S u O"
