"""Hold the bot's REST requests to Discord's global limit, shared by every process that uses the same token.

Discord allows a bot token about 50 requests a second in all, whatever the route; interaction responses and
follow-ups (`/interactions/...`, `/webhooks/...`) are not counted. discord.py waits only once Discord has
answered 429, and each process knows only its own requests, so a fleet of shard processes overruns the limit
together. Here every counted request first waits for a grant from a budget (storage/rest_budget.py): on
PostgreSQL one budget kept in the database for the whole fleet, on SQLite this process's own. Waiting requests
are granted together, so a burst asks the database once per slot, not once per request. Should the database
not answer, the process falls back to its own slots at its share of the limit (its shards over all shards).
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from storage.errors import StorageError
from storage.rest_budget import SLOT_S, LocalBudget, SharedBudget

log = logging.getLogger(__name__)

UNCOUNTED = ("/interactions/", "/webhooks/")
"""Routes Discord does not count against the global limit (interaction responses and follow-ups)."""


def counted(path: str) -> bool:
    """Tell whether a request to this API path counts against the bot's global limit."""
    return not path.startswith(UNCOUNTED)


class RestLimit:
    """Let counted requests through only as the budget grants them, the oldest first."""

    def __init__(self, claim: Callable[[int], Awaitable[int]], fallback: LocalBudget) -> None:
        self.claim = claim
        self.fallback = fallback
        self.waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self.granter: asyncio.Task[None] | None = None
        self.granted = 0
        self.outage_logged = False

    async def acquire(self) -> None:
        """Wait until the budget grants this request."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        if self.granter is None or self.granter.done():
            self.granter = asyncio.create_task(self._grant(), name="rest-limit")
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.granted -= 1  # granted as it was cancelled: that request is never sent
            raise

    async def _grant(self) -> None:
        """Ask the budget for as many requests as are waiting, release that many, wait for the next slot if none."""
        while self.waiting:
            while self.waiting and self.waiting[0].done():
                self.waiting.popleft()  # cancelled while waiting
            if not self.waiting:
                return
            granted = await self._claim(len(self.waiting))
            for _ in range(granted):
                while self.waiting and self.waiting[0].done():
                    self.waiting.popleft()
                if not self.waiting:
                    break
                self.waiting.popleft().set_result(None)
                self.granted += 1
            if not granted:
                await asyncio.sleep(SLOT_S / 4)

    async def _claim(self, wanted: int) -> int:
        """Claim from the shared budget; from this process's own share while the database does not answer."""
        try:
            granted = await self.claim(wanted)
        except StorageError as exc:
            if not self.outage_logged:
                log.warning("the shared REST budget is unavailable, using this process's share: %s", exc)
                self.outage_logged = True
            return await self.fallback.claim(wanted)
        self.outage_logged = False
        return granted


def install(http: Any, limit: RestLimit) -> None:
    """Make a discord.py HTTPClient wait for `limit` before each request that Discord counts."""
    request = http.request

    async def limited(route: Any, **kwargs: Any) -> Any:
        """Send a request once the limit lets it through."""
        if counted(route.path):
            await limit.acquire()
        return await request(route, **kwargs)

    http.request = limited


def limit_requests(http: Any, backend: Any, per_second: int, share: float = 1.0) -> RestLimit:
    """Hold a discord.py HTTPClient to `per_second` counted requests for the fleet sharing `backend`'s database.

    On PostgreSQL the budget is the database's, shared by every process; on SQLite this process's own. `share`
    is this process's part of the fleet (its shards over all shards), its limit while the database is away.
    """
    fallback = LocalBudget(max(1, int(per_second * share)))
    if backend.dialect == "postgresql":
        claim = SharedBudget(backend, per_second).claim
    else:
        claim = LocalBudget(per_second).claim
    limit = RestLimit(claim, fallback)
    install(http, limit)
    return limit
