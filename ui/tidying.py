"""Put off work no player waits for (greying out a superseded board) while a burst keeps the bot busy."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

TIDY_WITHIN_S = 5.0
"""The longest a job is put off, however busy the bot stays."""
CLOSE_WITHIN_S = 5.0
"""The longest shutdown waits for the jobs still queued."""
POLL_S = 0.05
"""How often a put-off job looks again whether the bot is still busy."""

Job = Callable[[], Awaitable[None]]


class Tidier:
    """Run put-off jobs in order, once nothing more urgent is in hand or they waited `within` seconds."""

    def __init__(
        self,
        busy: Callable[[], bool],
        *,
        within: float = TIDY_WITHIN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.busy = busy
        self.within = within
        self.clock = clock
        self.jobs: deque[tuple[float, Job]] = deque()
        self._runner: asyncio.Task[None] | None = None

    def put_off(self, job: Job) -> bool:
        """Queue a job if the bot is busy and return True; return False when it should run now, by its caller."""
        if not self.busy():
            return False
        self.jobs.append((self.clock(), job))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())
        return True

    async def _run(self) -> None:
        """Run the queued jobs, each once the bot is free or its time is up."""
        while self.jobs:
            queued, job = self.jobs[0]
            if self.busy() and self.clock() < queued + self.within:
                await asyncio.sleep(POLL_S)
                continue
            self.jobs.popleft()
            try:
                await job()
            except Exception:
                log.exception("a put-off job failed")

    async def close(self, within: float = CLOSE_WITHIN_S) -> None:
        """Run what is queued now, for `within` seconds at most (on shutdown: a stale menu is refused anyway)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within):
                while self.jobs:
                    _queued, job = self.jobs.popleft()
                    try:
                        await job()
                    except Exception:
                        log.exception("a put-off job failed")
        if self.jobs:
            log.info("%s put-off jobs dropped at shutdown", len(self.jobs))
            self.jobs.clear()
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)
