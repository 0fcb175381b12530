"""The bot's REST requests wait for the shared budget, the oldest first; interaction answers never wait."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from storage.errors import DatabaseUnavailable
from storage.rest_budget import LocalBudget
from ui.rest_limit import RestLimit, counted, install


class Budget:
    """A budget that grants what the test allows, and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.grants: asyncio.Queue[int | Exception] = asyncio.Queue()

    async def claim(self, wanted: int) -> int:
        self.asked.append(wanted)
        grant = await self.grants.get()
        if isinstance(grant, Exception):
            raise grant
        return min(grant, wanted)


async def test_waiting_requests_are_granted_together_oldest_first() -> None:
    budget = Budget()
    limit = RestLimit(budget.claim, LocalBudget(40))
    order: list[int] = []

    async def request(n: int) -> None:
        await limit.acquire()
        order.append(n)

    tasks = [asyncio.create_task(request(n)) for n in range(5)]
    await asyncio.sleep(0)
    budget.grants.put_nowait(2)
    budget.grants.put_nowait(0)  # the slot is full: wait for the next one
    budget.grants.put_nowait(3)
    async with asyncio.timeout(10):  # a guard against hanging, not a measurement
        await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3, 4]
    assert budget.asked == [5, 3, 3]  # one claim for every request waiting, not one per request


async def test_without_the_database_a_process_keeps_to_its_own_share() -> None:
    async def down(wanted: int) -> int:
        raise DatabaseUnavailable("down", transient=True)

    now = [5.0]
    limit = RestLimit(down, LocalBudget(20, clock=lambda: now[0]))  # its share: 2 a slot
    waiters = [asyncio.create_task(limit.acquire()) for _ in range(3)]
    async with asyncio.timeout(10):  # a guard against hanging, not a measurement
        await asyncio.gather(*waiters[:2])
        for _ in range(5):
            await asyncio.sleep(0.03)  # the granter asks again and again: this slot stays full
            assert not waiters[2].done()
        now[0] += 0.1
        await waiters[2]
    assert limit.granted == 3


async def test_only_requests_discord_counts_wait() -> None:
    assert counted("/channels/1/messages")
    assert not counted("/interactions/1/token/callback")
    assert not counted("/webhooks/1/token/messages/@original")
    budget = Budget()
    limit = RestLimit(budget.claim, LocalBudget(40))
    sent: list[str] = []

    async def request(route: Any, **_: Any) -> str:
        sent.append(route.path)
        return "ok"

    http = SimpleNamespace(request=request)
    install(http, limit)
    async with asyncio.timeout(10):
        assert await http.request(SimpleNamespace(path="/interactions/1/t/callback")) == "ok"
        assert budget.asked == []
        budget.grants.put_nowait(1)
        assert await http.request(SimpleNamespace(path="/channels/1/messages")) == "ok"
    assert budget.asked == [1] and sent == ["/interactions/1/t/callback", "/channels/1/messages"]
