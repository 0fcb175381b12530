"""The fake Discord as the benchmark watches it, and a read-only view of the bot's saved games."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.latency.samples import ANSWER_TIMEOUT
from tests.harness import (
    FakeDiscord,
    FakeInteraction,
)


class BenchDiscord(FakeDiscord):
    """The harness's fake Discord, waking each waiting player alone when its interaction is answered."""

    def __init__(self) -> None:
        self.waiting: dict[int, tuple[FakeInteraction, asyncio.Future[None]]] = {}
        self.watching: list[tuple[Callable[[], bool], asyncio.Future[float]]] = []
        super().__init__()

    def notify(self) -> None:
        """Wake everyone waiting for a state change, and the players whose interaction is settled."""
        super().notify()
        if self.waiting:
            for key, (ix, future) in list(self.waiting.items()):
                if settled(ix):
                    del self.waiting[key]
                    if not future.done():
                        future.set_result(None)
        if self.watching:
            now = asyncio.get_running_loop().time()
            for entry in list(self.watching):
                predicate, seen = entry
                if seen.done() or predicate():
                    self.watching.remove(entry)
                    if not seen.done():
                        seen.set_result(now)

    async def until(self, predicate: Callable[[], bool], within: float = ANSWER_TIMEOUT) -> float:
        """Wait until something the fake shows makes `predicate` true; return the loop time it became true."""
        loop = asyncio.get_running_loop()
        if predicate():
            return loop.time()
        seen: asyncio.Future[float] = loop.create_future()
        entry = (predicate, seen)
        self.watching.append(entry)
        try:
            async with asyncio.timeout(within):
                return await seen
        finally:
            if entry in self.watching:
                self.watching.remove(entry)

    async def settled(self, ix: FakeInteraction, within: float = ANSWER_TIMEOUT) -> None:
        """Wait until the user sees an answer to an interaction, or Discord refused the bot's answer."""
        if settled(ix):
            return
        future = asyncio.get_running_loop().create_future()
        self.waiting[ix.id] = (ix, future)
        try:
            async with asyncio.timeout(within):
                await future
        finally:
            self.waiting.pop(ix.id, None)


def settled(ix: FakeInteraction) -> bool:
    """Tell whether the user sees an answer to an interaction (the fake stamps answered_at), or it was refused."""
    return ix.answered_at is not None or (bool(ix.rejections) and ix.callback_type is None)


class StateReader:
    """Read a channel's open game state from the bot's database (a SQLite file read-only, or PostgreSQL).

    SQLite reads run on one thread of their own, with one connection: a reader that meets the bot's write
    lock waits there (SQLite's busy handler sleeps), not in this process's event loop, where it would delay
    every timestamp the fake takes.
    """

    SQL = "SELECT state FROM games WHERE channel_id = {} AND status IN ('lobby', 'active')"

    def __init__(self, database: str) -> None:
        self.database = database
        self.pool: Any = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-state")
        self.conn: sqlite3.Connection | None = None

    async def __aenter__(self) -> StateReader:
        """Connect to PostgreSQL if that is where the bot saves."""
        if "://" in self.database:
            import asyncpg

            url, _, schema = self.database.partition("?search_path=")
            settings = {"search_path": schema} if schema else {}
            self.pool = await asyncpg.create_pool(url, min_size=1, max_size=4, server_settings=settings)
        return self

    async def __aexit__(self, *_: object) -> None:
        """Close the PostgreSQL pool or the SQLite connection."""
        if self.pool is not None:
            await self.pool.close()
        if self.conn is not None:
            await asyncio.get_running_loop().run_in_executor(self.thread, self.conn.close)
        self.thread.shutdown()

    async def state(self, channel_id: int) -> str | None:
        """Return the saved state JSON of the channel's open game, or None."""
        if self.pool is not None:
            return await self.pool.fetchval(self.SQL.format("$1"), channel_id)
        return await asyncio.get_running_loop().run_in_executor(self.thread, self._read, channel_id)

    def _read(self, channel_id: int) -> str | None:
        """Read one state on the reader thread."""
        if self.conn is None:
            self.conn = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5, check_same_thread=False)
        row = self.conn.execute(self.SQL.format("?"), (channel_id,)).fetchone()
        return None if row is None else row[0]
