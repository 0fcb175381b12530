"""Check the sequential halving search: its budget, its determinism and that it keeps the winning move."""

from __future__ import annotations

import random

from ai import analyse, bots
from ai.clock import Clock, now
from ai.halving import halving, world
from engine.registry import get
from tests.ai.helpers import positions


def late_flippers_position() -> tuple[dict, int]:
    """Return a view and seat from late in a seeded 2-player Flippers game with several choices."""
    game = get("flippers")
    found = None
    for state, seat in positions("flippers", 2, {}, 3, every=1):
        legal = game.legal_actions(state, seat)
        if len(legal) > 8 and legal[0]["type"] == "play":
            found = (game.view(state, seat), seat)
    assert found is not None
    return found


def test_halving_spends_no_more_playouts_than_its_budget_and_repeats_itself() -> None:
    view, seat = late_flippers_position()
    first = analyse("flippers", view, seat, 5, iterations=90)
    assert sum(c.visits for c in first) <= 90
    assert first == analyse("flippers", view, seat, 5, iterations=90)


def test_halving_gives_the_survivor_the_most_playouts() -> None:
    view, seat = late_flippers_position()
    ai = bots()["flippers"]
    actions = get("flippers").legal_actions(ai.determinize(view, seat, random.Random(0)), seat)
    candidates = halving(ai, view, seat, actions, random.Random(1), Clock(playouts=400))
    assert len(candidates) == len(actions)
    best = candidates[0]
    assert best.visits == max(c.visits for c in candidates)
    assert all(c.win_rate <= best.win_rate for c in candidates if c.visits == best.visits)
    assert candidates[-1].visits < candidates[0].visits / 2


def two_move_flippers_position() -> tuple[dict, int, list]:
    """Return a view, seat and two of its legal moves, from a seeded 2-player Flippers game."""
    view, seat = late_flippers_position()
    ai = bots()["flippers"]
    actions = get("flippers").legal_actions(ai.determinize(view, seat, random.Random(0)), seat)
    return view, seat, actions[:2]


def test_on_the_clock_two_moves_share_the_whole_think_time() -> None:
    # Before: with iterations=None the first round played one world, so each move got a single playout.
    view, seat, actions = two_move_flippers_position()
    ai = bots()["flippers"]
    clock = Clock(seconds=1.5, rate=ai.think_rate(view))
    candidates = halving(ai, view, seat, actions, random.Random(3), clock)
    assert candidates[0].visits == candidates[1].visits
    assert candidates[0].visits >= 100
    assert 1.0 <= clock.used() < 1.1


def test_on_the_clock_every_round_gets_its_share_of_the_time() -> None:
    view, seat = late_flippers_position()
    ai = bots()["flippers"]
    actions = get("flippers").legal_actions(ai.determinize(view, seat, random.Random(0)), seat)
    clock = Clock(seconds=0.5, rate=ai.think_rate(view))
    candidates = halving(ai, view, seat, actions, random.Random(3), clock)
    visits = sorted((c.visits for c in candidates), reverse=True)
    assert min(visits) >= 2  # the first round is a 1/R share of the time, not one world
    assert visits[0] > 4 * visits[-1]
    assert clock.used() >= 1.0


def test_the_virtual_clock_gives_the_same_candidates_for_the_same_arguments() -> None:
    view, seat = late_flippers_position()
    first = analyse("flippers", view, seat, 5, budget_s=0.3, virtual=True)
    assert first == analyse("flippers", view, seat, 5, budget_s=0.3, virtual=True)
    assert sum(c.visits for c in first) > len(first)


def test_a_passed_deadline_stops_the_search_after_one_world() -> None:
    view, seat = late_flippers_position()
    candidates = analyse("flippers", view, seat, 5, budget_s=60, virtual=True, deadline=now() - 1)
    assert sum(c.visits for c in candidates) <= len(candidates)
    assert candidates[0].visits == 1


def test_a_world_begun_before_the_deadline_is_dropped_when_it_passes() -> None:
    view, seat = late_flippers_position()
    ai = bots()["flippers"]
    actions = get("flippers").legal_actions(ai.determinize(view, seat, random.Random(0)), seat)[:4]
    clock = Clock(seconds=100.0, rate=ai.think_rate(view), deadline=now() + 100)
    total, count = [0.0] * 4, [0] * 4
    clock.deadline = now() - 1  # passes while the world is played
    assert not world(ai, view, seat, actions, [0, 1, 2, 3], random.Random(2), clock, total, count, first=False)
    assert count == [0, 0, 0, 0]


def test_every_round_plays_a_new_world_even_when_the_first_took_more_than_its_share() -> None:
    # Before: when the first world outran a round's share, the next rounds halved again on that one world.
    view, seat = late_flippers_position()
    ai = bots()["flippers"]
    actions = get("flippers").legal_actions(ai.determinize(view, seat, random.Random(0)), seat)[:8]
    probe = Clock(playouts=8)
    halving(ai, view, seat, actions, random.Random(5), probe)  # exactly the first world
    clock = Clock(seconds=probe.work / 0.7, rate=1.0)  # the first world takes 70% of the budget, 3 rounds
    candidates = halving(ai, view, seat, actions, random.Random(5), clock)
    assert sum(c.visits >= 2 for c in candidates) >= 4  # round 1's four candidates each played a second world
