"""Check every bad input is refused with a message a player understands, changing nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.state import FlippersState
from tests.engine.flippers.helpers import new_setup, play, table


def setup_state() -> FlippersState:
    """Return a 2-player game in setup where Bob has already discarded."""
    state = new_setup(2, seed=1)
    GAME.apply(state, 1, {"type": "discard", "cards": [state.hands[1][0]]})
    return state


def ready() -> FlippersState:
    """Return Ana's turn before she plays, with Flip and Turn in hand."""
    cards = [
        ("food-1", "N15", "N", "A"),
        ("c-leader", "N16", "N", "up"),
        ("m-leader", "O16", "N", "up"),
        ("c-plus", "M15", "N", "up"),
        ("c-minus", "L15", "N", "down"),
        ("m-turn", "M14", "N", "up"),
    ]
    return table(cards, {0: ["c-flip", "c-turn"], 1: ["m-flip", "m-plus"]})


def played() -> FlippersState:
    """Return Ana's turn after she played her Flip with two cards of hers still to activate."""
    state = ready()
    state.place("c-replace", (14, 14), "E", "up")
    play(state, "c-flip", "M13", "N")
    return state


def blocked() -> FlippersState:
    """Return Ana's turn after playing, with her Plus under Bob's marker."""
    state = played()
    state.place("m-block", (12, 16), "N", "up")
    state.engaged[1] = True
    return state


def over() -> FlippersState:
    """Return a finished game."""
    state = table([("food-1", "N15", "N", "A")], {0: ["c-flip"]})
    play(state, "c-flip", "N14", "W")
    assert GAME.is_over(state)
    return state


CASES: list[tuple[Callable[[], FlippersState], int, Any, str]] = [
    (setup_state, 0, {"type": "discard", "cards": []}, "Choose exactly 1 card"),
    (setup_state, 0, {"type": "discard", "cards": "c-flip"}, "Choose exactly 1 card"),
    (setup_state, 0, {"type": "discard", "cards": ["m-flip"]}, "not a card in your hand"),
    (setup_state, 0, {"type": "discard", "cards": [None]}, "not a card in your hand"),
    (setup_state, 1, {"type": "discard", "cards": ["m-flip"]}, "already chosen"),
    (setup_state, 0, {"type": "play", "card": "c-flip", "cell": "N14", "facing": "N"}, "Setup is not"),
    (setup_state, 0, {"type": "activate", "card": "N16"}, "Setup is not finished"),
    (ready, 0, {"type": "discard", "cards": ["c-flip"]}, "only chosen during setup"),
    (ready, 1, {"type": "play", "card": "m-flip", "cell": "N14", "facing": "N"}, "It is not your turn"),
    (ready, 0, {"type": "play", "card": "m-flip", "cell": "N14", "facing": "N"}, "not a card in your hand"),
    (ready, 0, {"type": "play", "card": "c-bump", "cell": "N14", "facing": "N"}, "not a card in your hand"),
    (ready, 0, {"type": "play", "card": 7, "cell": "N14", "facing": "N"}, "not a card in your hand"),
    (ready, 0, {"type": "play", "card": "c-flip", "cell": "14N", "facing": "N"}, "is not a cell"),
    (ready, 0, {"type": "play", "card": "c-flip", "cell": None, "facing": "N"}, "is not a cell"),
    (ready, 0, {"type": "play", "card": "c-flip", "cell": "N15", "facing": "N"}, "N15 already holds Krill"),
    (ready, 0, {"type": "play", "card": "c-flip", "cell": "C3", "facing": "N"}, "not next to a card"),
    (ready, 0, {"type": "play", "card": "c-flip", "cell": "N14", "facing": "up"}, "\"up\" is not a direction"),
    (ready, 0, {"type": "play", "card": "c-flip", "cell": "N14"}, "not a direction: .* with N, E, S or W"),
    (ready, 0, {"type": "activate", "card": "M15"}, "Play a card from your hand first"),
    (played, 0, {"type": "play", "card": "c-turn", "cell": "N14", "facing": "N"}, "already played a card"),
    (played, 1, {"type": "activate", "card": "O16"}, "It is not your turn"),
    (played, 0, {"type": "activate", "card": "c-flip"}, "already acted this turn"),
    (played, 0, {"type": "activate", "card": "c-turn"}, "Chinstrap Turn is in your hand"),
    (played, 0, {"type": "activate", "card": "c-bump"}, "Chinstrap Bump is not on the table"),
    (played, 0, {"type": "activate", "card": "Z9"}, "There is no card at Z9"),
    (played, 0, {"type": "activate", "card": "wiggle"}, "neither a card nor a cell"),
    (played, 0, {"type": "activate", "card": None}, "Name the card to activate"),
    (played, 0, {"type": "activate", "card": "M14"}, r"Macaroni Turn \(M14\) is not your card"),
    (played, 0, {"type": "activate", "card": "N16"}, "Leader has no power"),
    (played, 0, {"type": "activate", "card": "N15"}, "Food cards have no power"),
    (played, 0, {"type": "activate", "card": "L15"}, "is face down"),
    (blocked, 0, {"type": "activate", "card": "M15"}, "under the Macaroni Block marker"),
    (ready, 0, {"type": "dance"}, "Unknown action"),
    (ready, 0, {}, "Unknown action"),
    (ready, 0, "play", "Unknown action"),
    (ready, 5, {"type": "play", "card": "c-flip", "cell": "N14", "facing": "N"}, "not playing in this game"),
    (over, 0, {"type": "play", "card": "c-flip", "cell": "N14", "facing": "N"}, "The game is over"),
]


@pytest.mark.parametrize(("build", "seat", "action", "message"), CASES)
def test_bad_input_is_refused_and_changes_nothing(
    build: Callable[[], FlippersState], seat: int, action: Any, message: str
) -> None:
    state = build()
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


def test_a_resigned_seat_cannot_act() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-flip"], 1: ["m-flip"], 2: ["e-flip"]}, players=3)
    GAME.resign(state, 1)
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match="resigned"):
        GAME.apply(state, 1, {"type": "play", "card": "m-flip", "cell": "N14", "facing": "N"})
    with pytest.raises(IllegalAction, match="already resigned"):
        GAME.resign(state, 1)
    assert GAME.dump(state) == before


def test_facing_may_be_written_out() -> None:
    state = ready()
    play(state, "c-flip", "N14", "north")
    assert state.facing["c-flip"] == "N"
