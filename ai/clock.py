"""Measure a search's think time: on the wall clock, on a virtual clock of the work done, or in playouts.

A search reports each playout with the engine actions it applied (`spend`) and asks how much of its budget is
used (`used`, a fraction). On a virtual clock the time is the work done at a fixed rate of actions per second,
so a decision depends only on its arguments (the machine's load changes nothing, and the same position gets
the same reply); a real deadline can still cap it, so a loaded machine answers on time with less thought.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

PLAYOUT_WORK = 4
"""Engine actions a playout costs beyond those it applies: dealing the world and judging the end."""


def now() -> float:
    """Return the wall clock every process of the machine shares (seconds, monotonic)."""
    return time.monotonic()


@dataclass
class Clock:
    """Hold one decision's budget and what the search has spent of it.

    Exactly one of `seconds` (with `rate` None: the wall clock; with `rate`: a virtual clock of `rate` actions
    per second) and `playouts` sets the budget. `deadline` (a `now()` reading) stops the search whatever the
    budget says.
    """

    seconds: float | None = None
    rate: float | None = None
    playouts: int | None = None
    deadline: float | None = None
    started: float = field(default_factory=now)
    work: int = 0
    done: int = 0

    def __post_init__(self) -> None:
        """Refuse a clock with no budget or two."""
        if (self.seconds is None) == (self.playouts is None):
            raise ValueError("a clock needs exactly one of seconds and playouts")

    @property
    def real(self) -> bool:
        """Return True when the budget is wall-clock seconds (so the result depends on the machine's speed)."""
        return self.playouts is None and self.rate is None

    def spend(self, actions: int) -> None:
        """Count one playout that applied `actions` engine actions."""
        self.work += actions + PLAYOUT_WORK
        self.done += 1

    def used(self) -> float:
        """Return the share of the budget spent so far (1 or more: time is up)."""
        if self.playouts is not None:
            share = self.done / max(self.playouts, 1)
        elif self.rate is not None:
            share = self.work / (self.rate * self.seconds) if self.seconds else 1.0  # type: ignore[operator]
        else:
            share = (now() - self.started) / self.seconds if self.seconds else 1.0  # type: ignore[operator]
        if self.deadline is not None:
            room = self.deadline - self.started
            share = max(share, (now() - self.started) / room if room > 0 else 1.0)
        return share

    def overdue(self) -> bool:
        """Return True once the deadline has passed (never without one)."""
        return self.deadline is not None and now() >= self.deadline

    def playouts_left(self) -> int | None:
        """Return how many playouts the budget still allows, when it counts playouts."""
        return None if self.playouts is None else self.playouts - self.done
