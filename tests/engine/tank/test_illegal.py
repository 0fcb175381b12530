"""Every bad input is refused with a readable message and leaves the game exactly as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.base import IllegalAction
from engine.tank import GAME
from engine.tank.grid import cut_lines, size
from engine.tank.state import TankState
from tests.engine.tank.helpers import finish_splits, play


def _refused(state: TankState, seat: int, action: Any, message: str) -> None:
    """Assert the action raises IllegalAction matching `message` and changes nothing."""
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


def _split_once(players: int = 4) -> tuple[TankState, int]:
    """Split A along h1 (A becomes the top row) and return the state and the next seat."""
    state = GAME.new_game(players, {}, 9)
    GAME.apply(state, GAME.to_act(state)[0], {"type": "split", "group": "A", "line": "h1"})
    return state, GAME.to_act(state)[0]


def test_single_card_group_cannot_be_split() -> None:
    state, seat = _split_once()
    GAME.apply(state, seat, {"type": "split", "group": "A", "line": "v1"})
    seat = GAME.to_act(state)[0]
    _refused(state, seat, {"type": "split", "group": "A", "line": "v1"}, "Group 1 is a single card")
    assert {"type": "split", "group": "A", "line": "v1"} not in GAME.legal_actions(state, seat)


@pytest.mark.parametrize("line", ["h1", "h2", "h3"])
def test_cut_must_run_through_the_group_not_along_or_outside_it(line: str) -> None:
    state, seat = _split_once()
    # Group A is the top row only: no horizontal line passes through it.
    _refused(state, seat, {"type": "split", "group": "A", "line": line}, "does not cut all the way through")


def test_cut_along_the_groups_own_edge_is_refused() -> None:
    state, seat = _split_once()
    action = {"type": "split", "group": "B", "line": "h1"}
    _refused(state, seat, action, "does not cut all the way through group 2")


@pytest.mark.parametrize("line", ["h4", "v0", "h", "diagonal", "", "h1 v1"])
def test_unknown_line_names_are_refused(line: str) -> None:
    state, seat = _split_once()
    _refused(state, seat, {"type": "split", "group": "B", "line": line}, "is not a cut line")


def test_missing_line_is_refused() -> None:
    state, seat = _split_once()
    _refused(state, seat, {"type": "split", "group": "B"}, "Name a cut line")
    _refused(state, seat, {"type": "split", "group": "B", "line": 2}, "Name a cut line")


def test_acting_out_of_turn_is_refused() -> None:
    state, seat = _split_once()
    other = (seat + 1) % 4
    _refused(state, other, {"type": "split", "group": "B", "line": "h2"}, "It is not your turn")
    finish_splits(state)
    other = (GAME.to_act(state)[0] + 1) % 4
    _refused(state, other, {"type": "take", "group": "A"}, "It is not your turn")
    _refused(state, 17, {"type": "take", "group": "A"}, "It is not your turn")


def test_taking_a_group_that_no_longer_exists_is_refused() -> None:
    state = GAME.new_game(4, {}, 9)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, {"type": "take", "group": "D"})
    if state.phase == "discard":
        GAME.apply(state, seat, {"type": "keep"})
    _refused(state, GAME.to_act(state)[0], {"type": "take", "group": "D"}, "Group 4 no longer exists")


def test_naming_a_group_that_never_existed_is_refused() -> None:
    state, seat = _split_once()
    _refused(state, seat, {"type": "split", "group": "Q", "line": "h2"}, "There is no group \"Q\"")
    _refused(state, seat, {"type": "split", "group": None, "line": "h2"}, "Name a group")
    _refused(state, seat, {"type": "split", "group": "  ", "line": "h2"}, "Name a group")


def test_taking_during_the_split_phase_and_splitting_during_the_take_phase_are_refused() -> None:
    state, seat = _split_once()
    _refused(state, seat, {"type": "take", "group": "A"}, "still being split")
    finish_splits(state)
    big = next(name for name, rect in state.groups.items() if size(rect) > 1)
    line = cut_lines(state.groups[big])[0]
    _refused(state, GAME.to_act(state)[0], {"type": "split", "group": big, "line": line}, "Splitting is over")


@pytest.mark.parametrize("action", [{"type": "pass"}, {}, {"type": None}, "take A", None, ["split"]])
def test_malformed_actions_are_refused(action: Any) -> None:
    state, seat = _split_once()
    _refused(state, seat, action, "Unknown action|not an action")


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    state = GAME.new_game(2, {}, 3)
    play(state, random.Random(3))
    _refused(state, 0, {"type": "take", "group": "A"}, "The game is over")
    assert GAME.to_act(state) == []
    assert GAME.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        GAME.resign(state, 0)


def test_groups_are_named_by_number_and_saved_letters_still_work() -> None:
    state = GAME.new_game(4, {}, 8)
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, {"type": "split", "group": " 1 ", "line": "h2"})
    assert sorted(state.groups) == ["A", "B"]
    GAME.apply(state, GAME.to_act(state)[0], {"type": "split", "group": "b", "line": "h3"})
    assert sorted(state.groups) == ["A", "B", "C"]
    _refused(state, GAME.to_act(state)[0], {"type": "split", "group": "9", "line": "v1"}, "There is no group \"9\"")
    _refused(state, GAME.to_act(state)[0], {"type": "split", "group": "0", "line": "v1"}, "There is no group \"0\"")
