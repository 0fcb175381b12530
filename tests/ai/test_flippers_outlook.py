"""Check the Flippers outlook weighs points by kind and progress, and 2-player playouts stop on it."""

from __future__ import annotations

import random

import pytest

from ai import bots
from ai.base import actor, sigmoid
from ai.flippers_outlook import Weights, estimate, income, outlook, progress
from ai.halving import playout
from engine.flippers import GAME
from engine.flippers.cards import explorer_id, setup_rule, team_cards
from engine.flippers.scoring import scores
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


def test_the_old_outlook_adds_half_the_income_to_the_points_now() -> None:
    state = first_turn(2)
    aim_at_leader(state, 0, "plus", 1)
    aim_at_leader(state, 1, "minus", 0)
    now, future = estimate(state), income(state)
    assert future[1] > 0 > future[0]
    assert outlook(state, Weights(income=(0.0, 0.0))) == now
    assert outlook(state, Weights()) == [now[s] + 0.5 * future[s] for s in range(2)]


def test_progress_runs_from_the_first_play_to_the_end() -> None:
    state = first_turn(3)
    assert progress(state) == 0.0
    rng = random.Random(4)
    seen = [0.0]
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        seen.append(progress(state))
    assert seen == sorted(seen)
    assert seen[-1] == 1.0
    assert len(set(seen)) == 3 * (8 - setup_rule(3)[0]) + 1  # one step for each card played


def test_food_and_income_weigh_more_as_the_game_nears_its_end() -> None:
    weights = Weights(food=(0.0, 0.2), leader=0.7, income=(0.05, 0.45))
    early, late = first_turn(2), first_turn(2)
    for state in (early, late):
        aim_at_leader(state, 0, "plus", 0)
    for seat in range(2):
        late.discards[seat] += late.decks[seat]
        late.decks[seat] = []
    assert progress(early) < 0.1 < 0.5 < progress(late) < 1.0
    for state in (early, late):
        done, points, gains = progress(state), scores(state)[0], income(state)[0]
        assert gains > 0
        expected = points["stash"] + 0.2 * done * points["food"] + 0.7 * points["leader"] + (0.05 + 0.4 * done) * gains
        assert outlook(state, weights)[0] == pytest.approx(expected)


def test_team_up_partners_share_their_outlook() -> None:
    state = first_turn(4, options={"teams": True})
    aim_at_leader(state, 1, "plus", 0)
    seen = outlook(state, Weights(income=(1.0, 1.0)))
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
    judged = outlook(copy, ai.outlook_weights)
    assert reward == sigmoid((judged[seat] - judged[1 - seat]) / ai.margin_scale)


def test_a_six_player_playout_still_plays_to_the_end() -> None:
    ai = bots()["flippers"]
    state = first_turn(6)
    assert ai.playout_limit(state) is None
    copy = ai.clone(state)
    playout(ai, copy, state.current, random.Random(2))
    assert GAME.is_over(copy)
