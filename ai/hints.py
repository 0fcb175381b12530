"""Suggest a move with the hard player's search and say why, in a line a player understands (runs in a worker).

The suggestion is the hard player's own choice at the same budget (ai.analyse, best first): following every hint
plays as well as the hard player (bench/hints.py measures it). It is worded as advice (ai/advice.py), and the
reason says what the move does when that tells something, then how often it and the next best move won in the
search's simulated games. (Re-ranking the search's top three with 40 quick games of its own, as hints once did,
let that noise override a better search: 33% against the hard player instead of about half.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai import analyse, bots
from ai.advice import advice
from ai.base import GameAI
from engine.base import Action
from i18n import _, current, ngettext, pgettext, using


@dataclass(frozen=True)
class Effect:
    """What a suggested move does: "score" (before, after), "place" (reach) or "take" (fish, reach)."""

    kind: str
    values: dict[str, int]


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
    """Return the hint's reason in the current language: what the move does (when that says something), then why.

    `rates` is (the suggested move's, the next best's) share of the search's simulated wins, or None when it is
    the only move.
    """
    e = effect.values
    does = ""
    if effect.kind == "place":
        does = ngettext("places a penguin with {n} tile within reach", "places a penguin with {n} tiles within reach",
                        e["reach"])
    elif effect.kind == "take":
        does = ngettext("takes {fish} fish and keeps {n} tile within reach",
                        "takes {fish} fish and keeps {n} tiles within reach", e["reach"], fish=e["fish"])
    elif e["before"] != e["after"]:
        does = ngettext("your expected score goes from {before} to {n} point",
                        "your expected score goes from {before} to {n} points", e["after"], before=e["before"])
    if rates is None:
        why = _("it is the only move you have")
    else:
        percent = {"rate": round(rates[0] * 100), "runner": round(rates[1] * 100)}
        if percent["rate"] > percent["runner"]:
            why = _("wins {rate}% of simulated games, the next best {runner}%", **percent)
        else:
            why = _("wins {rate}% of simulated games, about as often as the next best: the choice is close", **percent)
    # TRANSLATORS: a hint's reason: what the move does, then how it compares ("takes 2 fish…; wins 60%…").
    return pgettext("hint reason", "{does}; {why}", does=does, why=why) if does else why


def shown_as(ai: GameAI[Any], view: Mapping[str, Any], seat: int, action: Action, names: Sequence[str]) -> str:
    """Return the move as advice to the player ("Move your penguin from E4 to B3")."""
    return advice(ai.game.key, ai.determinize(view, seat, random.Random(0)), seat, action)


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
    virtual: bool = False,
    deadline: float | None = None,
    language: str | None = None,
) -> dict[str, Any]:
    """Return the suggested action (the hard search's best move), the move as advice and a one-line reason.

    The budget is given as ai.choose_action's is: with the hard player's seed, budget and `virtual` clock the
    action is the one the hard player would play. The reason and the advice are in `language` (a catalog code),
    or the current language when None: pass it when this runs in another process, which does not inherit the
    caller's language.
    """
    with using(language or current()):
        clock = {"iterations": iterations, "virtual": virtual, "deadline": deadline}
        return _hint(game_key, view, seat, names, seed, budget_s, clock)


def _hint(
    game_key: str,
    view: Mapping[str, Any],
    seat: int,
    names: Sequence[str],
    seed: int,
    budget_s: float,
    clock: dict[str, Any],
) -> dict[str, Any]:
    """Return the suggested action and its reason in the current language."""
    stats = analyse(game_key, dict(view), seat, seed, budget_s, **clock)
    ai = bots()[game_key]
    best = stats[0]
    rates = None if len(stats) == 1 else (best.win_rate, stats[1].win_rate)
    effect = what_it_does(ai, view, seat, best.action, names)
    return {
        "action": best.action,
        "shown": shown_as(ai, view, seat, best.action, names),
        "reason": reason(effect, rates),
        "win": None if rates is None else rates[0],
    }
