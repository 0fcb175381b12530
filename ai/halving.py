"""Search hidden-information games by sequential halving over sampled worlds, every candidate in the same worlds.

Each round deals worlds from the seat's view; in each world every surviving candidate is played and then played
out by the game's playout policy with the same random numbers, so candidates are compared on equal luck. After
each round the worse half is dropped, so the budget goes to telling the best moves apart.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ai.base import GameAI, actor
from engine.base import Action


@dataclass
class Candidate:
    """Hold what the search learnt about one root action."""

    action: Action
    visits: int
    win_rate: float
    """Mean reward in [0, 1]: mostly the victory share of the playouts, a little the final lead."""


def playout(ai: GameAI[Any], state: Any, seat: int, rng: random.Random) -> float:
    """Play a sampled world on by the game's playout policy and return `seat`'s reward."""
    game = ai.game
    depth_cap = ai.playout_depth
    steps = 0
    while not game.is_over(state) and (depth_cap is None or steps < depth_cap) and not ai.decided(state):
        mover = actor(game.to_act(state), seat)
        game.apply(state, mover, ai.playout_action(state, mover, game.legal_actions(state, mover), rng))
        steps += 1
    return ai.rewards(state)[seat]


def halving(
    ai: GameAI[Any],
    view: Mapping[str, Any],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    budget_s: float,
    iterations: int | None,
) -> list[Candidate]:
    """Return every candidate with its playouts and mean reward, best first, within the budget or playout cap."""
    game = ai.game
    n = len(actions)
    total = [0.0] * n
    count = [0] * n
    alive = list(range(n))
    rounds = max(1, math.ceil(math.log2(n)))
    start = time.perf_counter()
    deadline = start + budget_s
    done = 0
    for r in range(rounds):
        left = rounds - r
        if iterations is not None:
            room = iterations - done
        elif done:
            room = int((deadline - time.perf_counter()) * done / (time.perf_counter() - start))
        else:
            room = n
        worlds = max(1, room // (len(alive) * left))
        for _ in range(worlds):
            if done and ((time.perf_counter() >= deadline) if iterations is None else (done >= iterations)):
                break
            world = ai.determinize(view, seat, rng)
            luck = rng.getrandbits(64)
            results: list[float] = []
            for i in alive:
                spent = (time.perf_counter() >= deadline) if iterations is None else (done + len(results) >= iterations)
                if spent and results:
                    break
                state = ai.clone(world)
                game.apply(state, seat, actions[i])
                results.append(playout(ai, state, seat, random.Random(luck)))
            if len(results) < len(alive) and done:
                break  # a world not played by every candidate would favour some of them: drop it
            for i, reward in zip(alive, results, strict=False):
                total[i] += reward
                count[i] += 1
            done += len(results)
            if len(results) < len(alive):
                break
        if len(alive) > 1:
            alive.sort(key=lambda i: -total[i] / max(count[i], 1))
            alive = alive[: max(1, math.ceil(len(alive) / 2))]
    order = sorted(range(n), key=lambda i: (i not in alive, -count[i], -total[i] / max(count[i], 1)))
    return [Candidate(dict(actions[i]), count[i], total[i] / count[i] if count[i] else 0.0) for i in order]
