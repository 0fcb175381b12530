"""Share Discord's global REST limit (requests per second per bot token) between every process of the bot.

Time is cut into slots of SLOT_S seconds of the database server's clock, so every process counts the same
slots. A process asks for a few requests of the current slot at a time; the row of that slot (one of RING rows
reused in turn, so the table never grows) grants them only while the slot's total stays within its share of
the limit. A slot's share is the per-second limit times SLOT_S, rounded down, so any second of anyone's clock
holds at most the limit plus one slot's share. On SQLite, where one process runs every shard, the slots are
counted in memory the same way (`LocalBudget`).
"""

from __future__ import annotations

import math
import time
from typing import Any

SLOT_S = 0.1
"""The length of a slot: short, so a second never holds much more than the limit."""
RING = 64
"""Rows reused slot after slot (more than the slots a claim could lag behind)."""

CLAIM = (
    "INSERT INTO rest_budget AS b (ring, slot, used)"
    f" SELECT CAST(MOD(now.slot, {RING}) AS INTEGER), now.slot, $1"
    f" FROM (SELECT CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) / {SLOT_S}) AS BIGINT) AS slot) now"
    " ON CONFLICT (ring) DO UPDATE SET slot = excluded.slot,"
    " used = CASE WHEN b.slot = excluded.slot THEN b.used + excluded.used ELSE excluded.used END"
    " WHERE b.slot <> excluded.slot OR b.used + excluded.used <= $2"
    " RETURNING slot"
)


def per_slot(per_second: int) -> int:
    """Return how many requests one slot may grant for a limit of `per_second` (at least one)."""
    return max(1, math.floor(per_second * SLOT_S + 1e-9))


class SharedBudget:
    """Grant requests from the budget every process shares, in the PostgreSQL database (see module docstring)."""

    def __init__(self, backend: Any, per_second: int) -> None:
        self.backend = backend
        self.share = per_slot(per_second)
        self.slots: list[tuple[int, int]] = []
        """(slot, granted) of recent grants, for tests and benchmarks (the last RING kept)."""

    async def claim(self, wanted: int) -> int:
        """Take up to `wanted` requests of the current slot; return how many were granted (0: the slot is full)."""
        wanted = max(1, min(wanted, self.share))
        rows = await self.backend.fetch(CLAIM, (wanted, self.share))
        if not rows:
            return 0
        self.slots = [*self.slots[-RING + 1 :], (int(rows[0][0]), wanted)]
        return wanted


class LocalBudget:
    """Grant requests from this process's own slots (one process runs every shard, as on SQLite)."""

    def __init__(self, per_second: int, clock: Any = time.monotonic) -> None:
        self.share = per_slot(per_second)
        self.clock = clock
        self.slot = -1
        self.used = 0

    async def claim(self, wanted: int) -> int:
        """Take up to `wanted` requests of the current slot; return how many were granted (0: the slot is full)."""
        slot = math.floor(round(self.clock() / SLOT_S, 6))  # 5.1 / 0.1 is 50.99999999999999
        if slot != self.slot:
            self.slot, self.used = slot, 0
        granted = max(0, min(wanted, self.share - self.used))
        self.used += granted
        return granted
