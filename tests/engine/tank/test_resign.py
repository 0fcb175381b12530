"""A seat that resigns leaves the turn order, never wins, and the game stays coherent."""

from __future__ import annotations

import random

import pytest

from engine.base import IllegalAction
from engine.tank import GAME
from engine.tank.grid import size
from tests.engine.tank.helpers import card_places, cards_of, finish_splits, give, place, play


def _seats_acting(state, rng: random.Random) -> tuple[set[int], list]:
    """Play to the end and return the seats that acted and the events."""
    acted: set[int] = set()
    log = play(state, rng, lambda st, seat, action, events: acted.add(seat))
    return acted, log


def test_resigned_seat_never_acts_again_and_the_game_still_runs_all_rounds() -> None:
    state = GAME.new_game(4, {}, 5)
    quitter = (state.first_start + 2) % 4
    GAME.resign(state, quitter)
    acted, log = _seats_acting(state, random.Random(5))
    assert quitter not in acted
    assert state.round == 4 and GAME.is_over(state)
    assert [e.kind for e in log].count("leftover") == 4


def test_one_group_is_left_over_in_later_rounds() -> None:
    state = GAME.new_game(5, {}, 6)
    GAME.resign(state, 0)
    GAME.resign(state, 3)
    log = play(state, random.Random(6))
    rounds = [e for e in log if e.kind == "leftover"]
    assert len(rounds) == 5  # one leftover group per round, 5 rounds


@pytest.mark.parametrize("players", [3, 4, 5])
def test_resigning_after_splitting_drops_a_split_so_one_group_is_left_over(players: int) -> None:
    state = GAME.new_game(players, {}, 8)
    first = GAME.to_act(state)[0]
    GAME.apply(state, first, GAME.legal_actions(state, first)[0])
    GAME.resign(state, first)
    finish_splits(state)
    assert len(state.groups) == len(state.queue) + 1


def test_resigning_in_the_take_phase_discards_every_group_left() -> None:
    state = GAME.new_game(4, {}, 8)
    finish_splits(state)
    last = state.queue[-1]
    GAME.resign(state, last)
    pile = len(state.discards)
    left_cards = 0
    events = []
    while state.round == 1:
        seat = GAME.to_act(state)[0]
        if state.phase == "take" and len(state.queue) == 1:
            taken = GAME.legal_actions(state, seat)[0]["group"]
            left_cards = sum(size(rect) for name, rect in state.groups.items() if name != taken)
        pick = -1 if state.phase == "discard" else 0
        events += GAME.apply(state, seat, GAME.legal_actions(state, seat)[pick])
    assert [e.kind for e in events].count("leftover") == 2
    gourami = sum(e.data["count"] for e in events if e.kind == "discard")
    assert len(state.discards) == pile + left_cards + gourami


def test_resigned_seat_is_never_a_winner_even_with_the_best_aquarium() -> None:
    state = GAME.new_game(3, {}, 2)
    GAME.resign(state, 1)
    play(state, random.Random(2))
    # Hand every aquarium to the resigned seat: it now has the top total, the others nothing.
    state.hands[1] += state.hands[0] + state.hands[2]
    state.hands[0], state.hands[2] = [], []
    result = GAME.outcome(state)
    assert result.standings[-1].score > 0
    assert result.winners == [0, 2]
    assert result.standings[-1].seat == 1
    assert result.standings[-1].detail["resigned"] is True
    assert result.standings[-1].rank == 3


def test_two_player_game_ends_when_one_resigns_and_the_other_wins() -> None:
    state = GAME.new_game(2, {}, 4)
    events = GAME.resign(state, 0)
    assert [e.kind for e in events] == ["resign", "game_over"]
    assert GAME.is_over(state)
    assert GAME.outcome(state).winners == [1]
    assert GAME.to_act(state) == []
    assert sum(card_places(state).values()) == 36
    assert GAME.view(state, None)["final"] is not None


def test_game_ends_once_fewer_than_two_seats_remain() -> None:
    state = GAME.new_game(3, {}, 4)
    GAME.resign(state, 2)
    assert not GAME.is_over(state)
    GAME.resign(state, 0)
    assert GAME.is_over(state)
    assert GAME.outcome(state).winners == [1]


def test_resigning_on_your_own_turn_passes_the_turn() -> None:
    state = GAME.new_game(4, {}, 4)
    seat = GAME.to_act(state)[0]
    GAME.resign(state, seat)
    assert GAME.to_act(state) == [(seat + 1) % 4]


def test_resigning_during_your_gourami_discards_ends_them() -> None:
    state = GAME.new_game(4, {}, 4)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    give(state, seat, ["molly-7"])
    group = sorted(state.groups)[0]
    r0, c0, _, _ = state.groups[group]
    place(state, r0 * 4 + c0, cards_of("gourami")[0])
    GAME.apply(state, seat, {"type": "take", "group": group})
    assert state.phase == "discard"
    GAME.resign(state, seat)
    assert state.phase == "take"
    assert GAME.to_act(state) and GAME.to_act(state) != [seat]


def test_resigned_seat_cannot_act_or_resign_again() -> None:
    state = GAME.new_game(4, {}, 4)
    seat = GAME.to_act(state)[0]
    GAME.resign(state, seat)
    with pytest.raises(IllegalAction, match="left this game"):
        GAME.apply(state, seat, {"type": "split", "group": "A", "line": "h1"})
    with pytest.raises(IllegalAction, match="already left"):
        GAME.resign(state, seat)
    with pytest.raises(IllegalAction, match="no such seat"):
        GAME.resign(state, 9)
