"""Size the pools computer players and hints think in, so no table's computer player waits behind another's.

Each computer move runs in its own worker process while up to `thinkers()` of them think at once (several per
core: on a busy machine the processes share the cores and each search stops at its deadline, so every table is
answered on time with less thought rather than late). Hints think in a pool of their own, at a lower CPU
priority, so however many hints players ask for, computer players keep their think time.
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import Executor
from functools import partial
from typing import Any

from ai.clock import now
from ui.workers import make_pool, nothing

THINKERS_ENV = "ICE_FLOE_THINKERS"
THINKERS_PER_CORE = 6
"""Computer players thinking at once per core before a move waits for a worker (a worker takes about 57 MB)."""
HINT_WORKERS = 1
HINT_NICENESS = 10
"""How much lower than the bot's the hint worker's CPU priority is (os.nice): the cores go to computer players first."""
DEADLINE_SLACK = 0.3
"""Seconds a computer player's search may run past its think budget, counted from when the bot asked for it."""


def thinkers() -> int:
    """Return how many computer players may think at once: ICE_FLOE_THINKERS, else THINKERS_PER_CORE per core."""
    given = os.environ.get(THINKERS_ENV, "").strip()
    if given:
        count = int(given)
        if count < 1:
            raise ValueError(f"{THINKERS_ENV} must be at least 1 (got {given!r})")
        return count
    return max(4, THINKERS_PER_CORE * (os.cpu_count() or 1))


def warm_thinker() -> None:
    """Load every game's computer player, so a worker's first decision does not wait for imports."""
    from ai import bots

    bots()


def warm_hinter() -> None:
    """Lower this hint worker's CPU priority, then load the computer players."""
    os.nice(HINT_NICENESS)
    warm_thinker()


def choose(
    kind: str, view: dict[str, Any], seat: int, level: str, seed: int, budget: float, deadline: float | None
) -> dict[str, Any]:
    """Pick an action for a computer seat from what that seat may see (runs in a worker).

    The search thinks for `budget` seconds of its game's virtual clock, so a position gets the same reply
    whenever it is asked; it stops at `deadline` (an ai.clock.now() reading) on a machine too busy for that.
    """
    from ai import choose_action

    return choose_action(kind, view, seat, level, seed, budget_s=budget, virtual=True, deadline=deadline)


class Thinkers:
    """Own the computer players' pool and the hints' pool (each started on first use)."""

    def __init__(self, kind: str = "process", size: int | None = None) -> None:
        self.kind = kind
        self.size = size or thinkers()
        self._moves: Executor | None = None
        self._hints: Executor | None = None

    @property
    def moves(self) -> Executor:
        """Return the pool computer players think in."""
        if self._moves is None:
            self._moves = make_pool(self.kind, self.size, "bot", warm=warm_thinker)
        return self._moves

    @property
    def hints(self) -> Executor:
        """Return the pool hints think in (its own, so hints never queue computer players' moves)."""
        if self._hints is None:
            self._hints = make_pool(self.kind, HINT_WORKERS, "hint", warm=warm_hinter)  # threads run no warm
        return self._hints

    async def warm_up(self) -> None:
        """Start every worker now, so the first moves after a start do not wait for processes to start."""
        loop = asyncio.get_running_loop()
        jobs = [loop.run_in_executor(self.moves, nothing) for _ in range(self.size)]
        jobs += [loop.run_in_executor(self.hints, nothing) for _ in range(HINT_WORKERS)]
        await asyncio.gather(*jobs)

    async def choose(
        self, kind: str, view: dict[str, Any], seat: int, level: str, seed: int, budget: float
    ) -> dict[str, Any]:
        """Return a computer player's action, thought in the moves' pool by `budget` (+ slack) from now."""
        job = partial(choose, kind, view, seat, level, seed, budget, now() + budget + DEADLINE_SLACK)
        return await asyncio.get_running_loop().run_in_executor(self.moves, job)

    def close(self) -> None:
        """Stop both pools."""
        for pool in (self._moves, self._hints):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._moves = self._hints = None
