"""One PostgreSQL database shares Discord's global REST limit between processes: no slot grants more than its share."""

from __future__ import annotations

import asyncio
from collections import Counter

from storage.database import Database
from storage.rest_budget import LocalBudget, SharedBudget, per_slot


async def test_two_processes_never_take_more_than_one_slot_share_together(postgres_url: str) -> None:
    fleet = [Database(postgres_url), Database(postgres_url)]  # two processes: two pools, one database
    for db in fleet:
        await db.open()
    try:
        budgets = [SharedBudget(db.backend, 40) for db in fleet]
        granted: Counter[int] = Counter()
        wanted = 60

        async def take(budget: SharedBudget) -> None:
            got = 0
            while got < wanted:
                given = await budget.claim(min(3, wanted - got))
                if given:
                    slot, count = budget.slots[-1]
                    granted[slot] += count
                    got += given
                else:
                    await asyncio.sleep(0.01)

        async with asyncio.timeout(60):  # a guard against hanging, not a measurement
            await asyncio.gather(*(take(budget) for budget in budgets), *(take(budget) for budget in budgets))
        assert sum(granted.values()) == 4 * wanted
        assert max(granted.values()) <= per_slot(40) == 4
        assert len(granted) >= 4 * wanted // 4  # so the requests were spread over at least that many slots
    finally:
        for db in fleet:
            await db.close()


async def test_one_process_counts_its_own_slots() -> None:
    now = [10.0]
    budget = LocalBudget(40, clock=lambda: now[0])
    assert await budget.claim(3) == 3
    assert await budget.claim(3) == 1  # a slot of 0.1 s holds 4 of 40 a second
    assert await budget.claim(1) == 0
    now[0] += 0.1
    assert await budget.claim(5) == 4
