"""Search hidden-information games by sequential halving over sampled worlds, every candidate in the same worlds.

Each round deals worlds from the seat's view; in each world every surviving candidate is played and then played
out by the game's playout policy with the same random numbers, so candidates are compared on equal luck. Round r
of R ends when (r + 1) / R of the budget is used, whatever the budget is (playouts, or seconds on a real or
virtual clock), and then the worse half is dropped, so the whole think time goes to telling the best moves apart.
Every round while time is left plays at least one new world (the first may take more than its share).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ai.base import GameAI, actor
from ai.clock import Clock
from engine.base import Action


@dataclass
class Candidate:
    """Hold what the search learnt about one root action."""

    action: Action
    visits: int
    win_rate: float
    """Mean reward in [0, 1]: mostly the victory share of the playouts, a little the final lead."""


def playout(ai: GameAI[Any], state: Any, seat: int, rng: random.Random) -> tuple[float, int]:
    """Play a sampled world on by the game's playout policy; return `seat`'s reward and the engine actions it cost."""
    game = ai.game
    depth_cap = ai.playout_limit(state)
    steps = 0
    work = 0
    while not game.is_over(state) and (depth_cap is None or steps < depth_cap) and not ai.decided(state):
        mover = actor(game.to_act(state), seat)
        legal = game.legal_actions(state, mover)
        work += ai.playout_work(state, legal)
        game.apply(state, mover, ai.playout_action(state, mover, legal, rng))
        steps += 1
    return ai.rewards(state)[seat], steps + work


def halving(
    ai: GameAI[Any],
    view: Mapping[str, Any],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    clock: Clock,
) -> list[Candidate]:
    """Return every candidate with its playouts and mean reward, best first, once the clock's budget is used."""
    n = len(actions)
    total = [0.0] * n
    count = [0] * n
    alive = list(range(n))
    rounds = max(1, math.ceil(math.log2(n)))
    for r in range(rounds):
        share = (r + 1) / rounds
        played = 0
        while clock.done == 0 or clock.used() < share or (not played and clock.used() < 1):
            left = clock.playouts_left()
            if clock.done and left is not None and left < len(alive):
                break  # a world not played by every candidate would favour some of them
            if not world(ai, view, seat, actions, alive, rng, clock, total, count, first=clock.done == 0):
                break
            played += 1
        if len(alive) > 1:
            alive.sort(key=lambda i: -total[i] / max(count[i], 1))
            alive = alive[: max(1, math.ceil(len(alive) / 2))]
    order = sorted(range(n), key=lambda i: (i not in alive, -count[i], -total[i] / max(count[i], 1)))
    return [Candidate(dict(actions[i]), count[i], total[i] / count[i] if count[i] else 0.0) for i in order]


def world(
    ai: GameAI[Any],
    view: Mapping[str, Any],
    seat: int,
    actions: list[Action],
    alive: list[int],
    rng: random.Random,
    clock: Clock,
    total: list[float],
    count: list[int],
    *,
    first: bool,
) -> bool:
    """Deal one world and play every candidate in `alive` in it; return False when time ran out in between.

    Only the search's very first world is cut short (when even it does not fit the budget): its candidates that
    were not played stay unvisited. Any later world is played by every candidate, or dropped when the deadline
    passes in between.
    """
    state0 = ai.determinize(view, seat, rng)
    luck = rng.getrandbits(64)
    results: list[tuple[int, float]] = []
    for i in alive:
        left = clock.playouts_left()
        if results and first and ((left is not None and left <= 0) or clock.used() >= 1):
            break
        if results and not first and clock.overdue():
            return False  # the bot's deadline passed: answer now, without this world
        state = ai.clone(state0)
        ai.game.apply(state, seat, actions[i])
        reward, steps = playout(ai, state, seat, random.Random(luck))
        clock.spend(steps + 1)
        results.append((i, reward))
    for i, reward in results:
        total[i] += reward
        count[i] += 1
    return len(results) == len(alive)
