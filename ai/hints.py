"""Suggest a move with the hard player's search and say why, in a line a player understands (runs in a worker).

The search (ai/search.py) ranks the moves; the three it likes best are then played out to the end from the same
sampled positions (the same seed for each), and the one that wins most often is suggested, so the line can say
how often it and the next best win in simulated games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ai import analyse, bots
from ai.base import GameAI
from engine.base import Action

PLAYOUTS = 40
"""Games simulated to the end for each candidate move."""
CANDIDATES = 3
"""How many of the search's favourite moves are simulated; the one that wins most often is suggested."""
PLAYOUT_STEPS = 600
"""A simulated game stops after this many actions (every game here ends well before)."""


def win_rate(ai: GameAI[Any], view: Mapping[str, Any], seat: int, action: Action, seed: int, games: int) -> float:
    """Return the share of simulated games `seat` (or its side) wins after playing `action` now."""
    game = ai.game
    rng = random.Random(seed)
    wins = 0.0
    for _ in range(games):
        state = ai.determinize(view, seat, rng)
        game.apply(state, seat, dict(action))
        steps = 0
        while not game.is_over(state) and steps < PLAYOUT_STEPS:
            mover = game.to_act(state)[0]
            game.apply(state, mover, ai.playout_action(state, mover, game.legal_actions(state, mover), rng))
            steps += 1
        if game.is_over(state):
            winners = game.outcome(state).winners
            sides = {ai.side(state, w) for w in winners}
            if ai.side(state, seat) in sides:
                wins += 1.0 / len(sides)
    return wins / games


def what_it_does(ai: GameAI[Any], view: Mapping[str, Any], seat: int, action: Action, names: Sequence[str]) -> str:
    """Describe the move's effect in a few words, from a position `seat` cannot tell from the real one."""
    game = ai.game
    state = ai.determinize(view, seat, random.Random(0))
    if game.key == "fish":
        return _fish_effect(ai, state, seat, action)
    side = ai.side(state, seat)
    before = ai.estimate(ai.clone(state))[side]
    game.apply(state, seat, dict(action))
    after = ai.estimate(state)[side]
    return f"your expected score goes from {before:.0f} to {after:.0f} points"


def shown_as(ai: GameAI[Any], view: Mapping[str, Any], seat: int, action: Action, names: Sequence[str]) -> str:
    """Return how the board's summary would describe the move (its first public line)."""
    game = ai.game
    state = ai.determinize(view, seat, random.Random(0))
    events = game.apply(state, seat, dict(action))
    return next((t for e in events if e.private_to is None and (t := game.describe(e, names))), "")


def _fish_effect(ai: GameAI[Any], state: Any, seat: int, action: Action) -> str:
    """Say how many fish a Hey, That's My Fish! move takes and how many tiles stay within reach."""
    from engine.fish.game import PLAY

    game = ai.game
    fish = sum(state.collected[seat])
    game.apply(state, seat, dict(action))
    taken = sum(state.collected[seat]) - fish
    probe = state.copy()
    probe.phase, probe.current = PLAY, seat
    reach = len({a["to"] for a in game.legal_actions(probe, seat)})
    tiles = "tile" if reach == 1 else "tiles"
    if action.get("type") == "place":
        return f"places a penguin with {reach} {tiles} within reach"
    return f"takes {taken} fish and keeps {reach} {tiles} within reach"


def hint(
    game_key: str,
    view: Mapping[str, Any],
    seat: int,
    names: Sequence[str],
    seed: int,
    *,
    budget_s: float = 1.0,
    iterations: int | None = None,
    playouts: int = PLAYOUTS,
) -> dict[str, Any]:
    """Return the suggested action and a one-line reason (the hard search's best move, two moves simulated)."""
    stats = analyse(game_key, dict(view), seat, seed, budget_s, iterations=iterations)
    ai = bots()[game_key]
    if len(stats) == 1:
        only = stats[0].action
        effect = what_it_does(ai, view, seat, only, names)
        shown = shown_as(ai, view, seat, only, names)
        return {"action": only, "shown": shown, "reason": f"{effect}; it is the only move you have", "win": None}
    candidates = stats[:CANDIDATES]
    rates = [win_rate(ai, view, seat, c.action, seed, playouts) for c in candidates]
    order = sorted(range(len(candidates)), key=lambda i: (-rates[i], i))
    best, runner = candidates[order[0]].action, rates[order[1]]
    effect = what_it_does(ai, view, seat, best, names)
    reason = f"{effect}; wins {rates[order[0]]:.0%} of simulated games, the next best {runner:.0%}"
    return {"action": best, "shown": shown_as(ai, view, seat, best, names), "reason": reason, "win": rates[order[0]]}
