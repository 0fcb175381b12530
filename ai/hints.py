"""Suggest a move with the hard player's search and say why, in a line a player understands (runs in a worker).

The search (ai/search.py) ranks the moves; the three it likes best are then played out to the end from the same
sampled positions (the same seed for each), and the one that wins most often is suggested, so the line can say
how often it and the next best win in simulated games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai import analyse, bots
from ai.base import GameAI
from engine.base import Action
from i18n import current, ngettext, using

PLAYOUTS = 40
"""Games simulated to the end for each candidate move."""
CANDIDATES = 3
"""How many of the search's favourite moves are simulated; the one that wins most often is suggested."""
PLAYOUT_STEPS = 600
"""A simulated game stops after this many actions (every game here ends well before)."""


@dataclass(frozen=True)
class Effect:
    """What a suggested move does: "score" (before, after), "place" (reach) or "take" (fish, reach)."""

    kind: str
    values: dict[str, int]


def win_rate(ai: GameAI[Any], view: Mapping[str, Any], seat: int, action: Action, seed: int, games: int) -> float:
    """Return the share of simulated games `seat` (or its side) wins after playing `action` now."""
    game = ai.game
    rng = random.Random(seed)
    wins = 0.0
    for _game in range(games):
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


def what_it_does(ai: GameAI[Any], view: Mapping[str, Any], seat: int, action: Action, names: Sequence[str]) -> Effect:
    """Measure the move's effect, from a position `seat` cannot tell from the real one."""
    game = ai.game
    state = ai.determinize(view, seat, random.Random(0))
    if game.key == "fish":
        return _fish_effect(ai, state, seat, action)
    side = ai.side(state, seat)
    before = ai.estimate(ai.clone(state))[side]
    game.apply(state, seat, dict(action))
    after = ai.estimate(state)[side]
    return Effect("score", {"before": round(before), "after": round(after)})


def reason(effect: Effect, rates: tuple[float, float] | None) -> str:
    """Return the hint's reason in the current language: the move's effect, then the simulated win rates.

    `rates` is (the suggested move's, the next best's) share of simulated wins, or None when it is the only move.
    """
    e = effect.values
    if rates is None:
        if effect.kind == "place":
            return ngettext(
                "places a penguin with {n} tile within reach; it is the only move you have",
                "places a penguin with {n} tiles within reach; it is the only move you have",
                e["reach"],
            )
        if effect.kind == "take":
            return ngettext(
                "takes {fish} fish and keeps {n} tile within reach; it is the only move you have",
                "takes {fish} fish and keeps {n} tiles within reach; it is the only move you have",
                e["reach"],
                fish=e["fish"],
            )
        return ngettext(
            "your expected score goes from {before} to {n} point; it is the only move you have",
            "your expected score goes from {before} to {n} points; it is the only move you have",
            e["after"],
            before=e["before"],
        )
    percent = {"rate": round(rates[0] * 100), "runner": round(rates[1] * 100)}
    if effect.kind == "place":
        return ngettext(
            "places a penguin with {n} tile within reach; wins {rate}% of simulated games, the next best {runner}%",
            "places a penguin with {n} tiles within reach; wins {rate}% of simulated games, the next best {runner}%",
            e["reach"],
            **percent,
        )
    if effect.kind == "take":
        return ngettext(
            "takes {fish} fish and keeps {n} tile within reach; "
            "wins {rate}% of simulated games, the next best {runner}%",
            "takes {fish} fish and keeps {n} tiles within reach; "
            "wins {rate}% of simulated games, the next best {runner}%",
            e["reach"],
            fish=e["fish"],
            **percent,
        )
    return ngettext(
        "your expected score goes from {before} to {n} point; wins {rate}% of simulated games, the next best {runner}%",
        "your expected score goes from {before} to {n} points; "
        "wins {rate}% of simulated games, the next best {runner}%",
        e["after"],
        before=e["before"],
        **percent,
    )


def shown_as(ai: GameAI[Any], view: Mapping[str, Any], seat: int, action: Action, names: Sequence[str]) -> str:
    """Return how the board's summary would describe the move (its first public line)."""
    game = ai.game
    state = ai.determinize(view, seat, random.Random(0))
    events = game.apply(state, seat, dict(action))
    return next((t for e in events if e.private_to is None and (t := game.describe(e, names))), "")


def _fish_effect(ai: GameAI[Any], state: Any, seat: int, action: Action) -> Effect:
    """Count the fish a Hey, That's My Fish! move takes and the tiles that stay within reach."""
    from engine.fish.game import PLAY

    game = ai.game
    fish = sum(state.collected[seat])
    game.apply(state, seat, dict(action))
    taken = sum(state.collected[seat]) - fish
    probe = state.copy()
    probe.phase, probe.current = PLAY, seat
    reach = len({a["to"] for a in game.legal_actions(probe, seat)})
    if action.get("type") == "place":
        return Effect("place", {"reach": reach})
    return Effect("take", {"fish": taken, "reach": reach})


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
    language: str | None = None,
) -> dict[str, Any]:
    """Return the suggested action and a one-line reason (the hard search's best move, two moves simulated).

    The reason and the move's line are in `language` (a catalog code), or the current language when None: pass it
    when this runs in another process, which does not inherit the caller's language.
    """
    with using(language or current()):
        return _hint(game_key, view, seat, names, seed, budget_s, iterations, playouts)


def _hint(
    game_key: str,
    view: Mapping[str, Any],
    seat: int,
    names: Sequence[str],
    seed: int,
    budget_s: float,
    iterations: int | None,
    playouts: int,
) -> dict[str, Any]:
    """Return the suggested action and its reason in the current language."""
    stats = analyse(game_key, dict(view), seat, seed, budget_s, iterations=iterations)
    ai = bots()[game_key]
    if len(stats) == 1:
        only = stats[0].action
        effect = what_it_does(ai, view, seat, only, names)
        shown = shown_as(ai, view, seat, only, names)
        return {"action": only, "shown": shown, "reason": reason(effect, None), "win": None}
    candidates = stats[:CANDIDATES]
    rates = [win_rate(ai, view, seat, c.action, seed, playouts) for c in candidates]
    order = sorted(range(len(candidates)), key=lambda i: (-rates[i], i))
    best, runner = candidates[order[0]].action, rates[order[1]]
    effect = what_it_does(ai, view, seat, best, names)
    why = reason(effect, (rates[order[0]], runner))
    return {"action": best, "shown": shown_as(ai, view, seat, best, names), "reason": why, "win": rates[order[0]]}
