"""Hey, That's My Fish! speaks the player's language: events, status, refusals, the tie-break and the title."""

from __future__ import annotations

import pytest

from engine.base import Event, IllegalAction, Standing
from engine.fish import GAME
from engine.fish.text import tiebreak
from i18n import using
from tests.engine.fish.helpers import position

NAMES = ["Ana", "Bo"]


def test_a_move_is_told_in_german_with_the_names_filled_in() -> None:
    move = Event("move", 1, {"from": "B3", "to": "E3", "fish": 2, "turn": 4})
    with using("de"):
        assert GAME.describe(move, NAMES) == "Zug 4: Bo zog B3→E3 und nahm eine 2-Fisch-Scholle."
    assert GAME.describe(move, NAMES) == "Turn 4: Bo moved B3→E3 and took a 2-fish tile."


def test_a_refusal_is_worded_in_the_language_current_when_the_move_is_made() -> None:
    state = position([["A1"], ["H8"]])
    with using("ja"), pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"type": "move", "from": "C3", "to": "C4"})
    assert str(refused.value) == "C3にあなたのペンギンはいません。"
    with using("es"), pytest.raises(IllegalAction, match=r'^No hay ninguna placa "Z9" en el tablero'):
        GAME.apply(state, 0, {"type": "move", "from": "Z9", "to": "C4"})


def test_the_status_line_counts_the_penguins_left_to_place_in_portuguese() -> None:
    state = GAME.new_game(2, {}, 1)
    with using("pt_BR"):
        assert GAME.status(state, NAMES) == (
            "Posicionamento · Ana posiciona um pinguim numa placa de 1 peixe (faltam 8 para posicionar)."
        )


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        (
            "en",
            "Tied on 30 fish and 1 tile: the victory is shared.",
            "Tied on 30 fish and 2 tiles: the victory is shared.",
        ),
        (
            "de",
            "Gleichstand bei 30 Fischen und 1 Scholle: Der Sieg wird geteilt.",
            "Gleichstand bei 30 Fischen und 2 Schollen: Der Sieg wird geteilt.",
        ),
        (
            "es",
            "Empate a 30 peces y 1 placa: la victoria se comparte.",
            "Empate a 30 peces y 2 placas: la victoria se comparte.",
        ),
        (
            "pt_BR",
            "Empate com 30 peixes e 1 placa: a vitória é dividida.",
            "Empate com 30 peixes e 2 placas: a vitória é dividida.",
        ),
        ("ja", "魚30匹・タイル1枚で同点：勝利を分け合います。", "魚30匹・タイル2枚で同点：勝利を分け合います。"),
    ],
)
def test_the_tie_break_counts_tiles_in_each_language(language: str, one: str, two: str) -> None:
    def tied(tiles: int) -> list[Standing]:
        return [Standing(seat, 30, 1, True, {"tiles": tiles}) for seat in (0, 1)]

    with using(language):
        assert (tiebreak(tied(1)), tiebreak(tied(2))) == (one, two)


def test_the_title_is_the_published_german_one_and_stays_english_where_none_is_known() -> None:
    with using("de"):
        assert GAME.title == "Hey, danke für den Fisch!"
    for language in ("en", "es", "pt_BR", "ja"):
        with using(language):
            assert GAME.title == "Hey, That's My Fish!"
