"""Check the fourth game's rules on their own: legal takes, refusals that change nothing, resigning, saves."""

from __future__ import annotations

import pytest

from engine.base import CorruptState, IllegalAction
from tests.fourth_game import GAME
from tests.fourth_game.rules import NimState


def fixed(hands: list[list[int]], piles: list[int]) -> NimState:
    """Return a game with chosen hands and piles."""
    state = GAME.new_game(len(hands), {}, 1)
    state.hands, state.piles = hands, piles
    return state


def test_the_best_card_bounds_the_take_and_the_lowest_card_that_allows_it_is_played() -> None:
    state = fixed([[1, 3], [2, 2]], [4, 0, 2])
    assert {(a["pile"], a["stones"]) for a in GAME.legal_actions(state, 0)} == {
        ("A", 1), ("A", 2), ("A", 3), ("C", 1), ("C", 2)
    }
    assert GAME.legal_actions(state, 1) == []
    events = GAME.apply(state, 0, {"type": "take", "pile": "a", "stones": "2"})
    assert events[0].data == {"pile": "A", "stones": 2, "card": 3} and events[1].private_to == 0
    assert state.piles == [2, 0, 2] and state.current == 1 and len(state.hands[0]) == 2 and state.played == [0, 0, 1]


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"type": "take", "pile": "A", "stones": 1}, "not your turn"),
        (0, {"type": "take", "pile": "D", "stones": 1}, "no pile “D”"),
        (0, {"type": "take", "pile": "B", "stones": 1}, "Pile B is empty"),
        (0, {"type": "take", "pile": "A", "stones": 3}, "highest card is 2"),
        (0, {"type": "take", "pile": "A", "stones": "two"}, "whole number, not “two”"),
        (0, {"type": "swap"}, "no action “swap”"),
    ],
)
def test_a_refused_take_says_why_and_changes_nothing(seat: int, action: dict[str, object], message: str) -> None:
    state = fixed([[1, 2], [3, 3]], [5, 0, 1])
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


def test_the_last_stone_wins_and_resigning_leaves_the_last_player_the_winner() -> None:
    state = fixed([[1, 1], [1, 1], [1, 1]], [0, 0, 1])
    GAME.apply(state, 0, {"type": "take", "pile": "C", "stones": 1})
    assert GAME.is_over(state) and GAME.outcome(state).winners == [0]
    state = fixed([[1, 1], [1, 1], [1, 1]], [3, 3, 3])
    GAME.resign(state, 0)
    assert state.current == 1 and not GAME.is_over(state)
    GAME.resign(state, 2)
    assert GAME.is_over(state) and [s.seat for s in GAME.outcome(state).standings] == [1, 0, 2]


def test_a_save_round_trips_and_a_damaged_one_is_refused() -> None:
    state = GAME.new_game(4, {}, 9)
    GAME.apply(state, 0, dict(GAME.legal_actions(state, 0)[0]))
    assert GAME.load(GAME.dump(state)) == state
    assert "hand" not in GAME.view(state, None) and GAME.view(state, 2)["hand"] == state.hands[2]
    for damage in ({"schema": 9}, {**GAME.dump(state), "piles": [1, 2]}, {**GAME.dump(state), "taken": None}):
        with pytest.raises(CorruptState):
            GAME.load(damage)
