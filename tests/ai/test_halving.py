"""Check the sequential halving search: its budget, its determinism and that it keeps the winning move."""

from __future__ import annotations

import random

from ai import analyse, bots
from ai.halving import halving
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
    candidates = halving(ai, view, seat, actions, random.Random(1), 1e9, 400)
    assert len(candidates) == len(actions)
    best = candidates[0]
    assert best.visits == max(c.visits for c in candidates)
    assert all(c.win_rate <= best.win_rate for c in candidates if c.visits == best.visits)
    assert candidates[-1].visits < candidates[0].visits / 2
