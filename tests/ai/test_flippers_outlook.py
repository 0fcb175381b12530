"""Check the Flippers outlook counts what Plus and Minus cards will still move, and 2-player playouts stop on it."""

from __future__ import annotations

import random

import pytest

from ai import bots
from ai.base import actor, sigmoid
from ai.flippers_outlook import estimate, income, outlook
from ai.halving import playout
from engine.flippers import GAME
from engine.flippers.cards import explorer_id, team_cards
from engine.flippers.state import DOWN, PLAY, UP, FlippersState
from engine.flippers.table import DIRECTIONS, step


def first_turn(players: int, seed: int = 5, options: dict[str, bool] | None = None) -> FlippersState:
    """Return a seeded game at its first play, set up by random Leader placements and discards."""
    rng = random.Random(seed)
    state = GAME.new_game(players, options or {}, seed)
    while state.phase != PLAY:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def aim_at_leader(state: FlippersState, owner: int, power: str, target: int) -> str:
    """Put `owner`'s card of `power` face up beside `target`'s Leader, aimed at it, out of its hand or deck."""
    cid = explorer_id(owner, power)
    for pile in (state.hands[owner], state.decks[owner], state.discards[owner]):
        if cid in pile:
            pile.remove(cid)
    leader = state.where[team_cards(target)[0]]
    for facing in DIRECTIONS:
        spot = next(s for s in (step(leader, d) for d in DIRECTIONS) if step(s, facing) == leader)
        if spot not in state.cells:
            state.place(cid, spot, facing, UP)
            return cid
    raise AssertionError("no empty cell beside the Leader")


def turns_left(state: FlippersState, seat: int) -> int:
    """Return the turns a seat still has: one for each card in its hand and deck."""
    return len(state.hands[seat]) + len(state.decks[seat])


@pytest.mark.parametrize(("power", "each_turn"), [("plus", 1), ("minus", -2)])
def test_a_point_card_aimed_at_an_explorer_counts_once_for_each_turn_its_owner_has_left(
    power: str, each_turn: int
) -> None:
    state = first_turn(2)
    before = income(state)
    cid = aim_at_leader(state, 0, power, 1)
    assert income(state)[1] - before[1] == each_turn * turns_left(state, 0)
    assert income(state)[0] == before[0]
    state.face[cid] = DOWN  # a face-down card does nothing
    assert income(state) == before


def test_a_point_card_of_a_seat_with_no_card_left_counts_nothing() -> None:
    state = first_turn(2)
    before = income(state)
    aim_at_leader(state, 0, "plus", 1)
    state.discards[0] += state.hands[0] + state.decks[0]
    state.hands[0], state.decks[0] = [], []
    assert income(state) == before


def test_the_outlook_adds_its_weight_of_the_income_to_the_points_now() -> None:
    state = first_turn(2)
    aim_at_leader(state, 0, "plus", 1)
    aim_at_leader(state, 1, "minus", 0)
    now, future = estimate(state), income(state)
    assert future[1] > 0 > future[0]
    assert outlook(state, 0.0) == now
    assert outlook(state, 0.5) == [now[s] + 0.5 * future[s] for s in range(2)]


def test_team_up_partners_share_their_outlook() -> None:
    state = first_turn(4, options={"teams": True})
    aim_at_leader(state, 1, "plus", 0)
    seen = outlook(state, 1.0)
    assert seen[0] == seen[2] and seen[1] == seen[3]
    assert seen[0] - estimate(state)[0] == turns_left(state, 1)


def test_a_two_player_playout_stops_after_its_depth_and_is_judged_by_the_outlook() -> None:
    # Before: a 2-player playout went on to the end with random plays and was judged by who won.
    ai = bots()["flippers"]
    state = first_turn(2)
    seat = state.current
    depth = ai.playout_limit(state)
    assert depth is not None
    copy = ai.clone(state)
    rng = random.Random(9)
    for _ in range(depth):
        mover = actor(GAME.to_act(copy), seat)
        GAME.apply(copy, mover, ai.playout_action(copy, mover, GAME.legal_actions(copy, mover), rng))
    assert not GAME.is_over(copy)
    reward, _cost = playout(ai, ai.clone(state), seat, random.Random(9))
    judged = outlook(copy, ai.outlook_weight)
    assert reward == sigmoid((judged[seat] - judged[1 - seat]) / ai.margin_scale)


def test_a_six_player_playout_still_plays_to_the_end() -> None:
    ai = bots()["flippers"]
    state = first_turn(6)
    assert ai.playout_limit(state) is None
    copy = ai.clone(state)
    playout(ai, copy, state.current, random.Random(2))
    assert GAME.is_over(copy)
