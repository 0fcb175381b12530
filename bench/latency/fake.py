"""The fake Discord as the benchmark watches it, and a read-only view of the bot's saved games."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.latency.samples import ANSWER_TIMEOUT
from tests.harness import FakeChannel, FakeDiscord, FakeInteraction, FakeMessage


class BenchDiscord(FakeDiscord):
    """The harness's fake Discord, waking each waiting player alone when its interaction is answered.

    A player watching its channel for a new board is woken only by a change to that channel's messages, so the
    harness does not re-read every channel on every request (it shares this machine with the bot it measures).
    """

    def __init__(self) -> None:
        self.waiting: dict[int, tuple[FakeInteraction, asyncio.Future[None]]] = {}
        self.watching: dict[int, list[tuple[Callable[[], bool], asyncio.Future[float]]]] = {}
        self.touched: set[int] = set()
        super().__init__()

    def create_message(self, channel: FakeChannel, *args: Any, **kwargs: Any) -> FakeMessage:
        """Store a new message and remember that its channel changed."""
        self.touched.add(channel.id)
        return super().create_message(channel, *args, **kwargs)

    def edit_message(self, message: FakeMessage, *args: Any, **kwargs: Any) -> FakeMessage:
        """Apply an edit and remember that its channel changed."""
        self.touched.add(message.channel_id)
        return super().edit_message(message, *args, **kwargs)

    def delete_message(self, message: FakeMessage) -> None:
        """Mark a message deleted and remember that its channel changed."""
        self.touched.add(message.channel_id)
        super().delete_message(message)

    def notify(self) -> None:
        """Wake the waiters on any change, the players whose interaction settled and the changed channels' watchers."""
        super().notify()
        if self.waiting:
            for key, (ix, future) in list(self.waiting.items()):
                if settled(ix):
                    del self.waiting[key]
                    if not future.done():
                        future.set_result(None)
        touched, self.touched = self.touched, set()
        if not self.watching or not touched:
            return
        now = asyncio.get_running_loop().time()
        for channel_id in touched:
            for entry in list(self.watching.get(channel_id, ())):
                predicate, seen = entry
                if seen.done() or predicate():
                    self.watching[channel_id].remove(entry)
                    if not seen.done():
                        seen.set_result(now)

    async def until(self, channel: FakeChannel, predicate: Callable[[], bool], within: float = ANSWER_TIMEOUT) -> float:
        """Wait until a change to a channel's messages makes `predicate` true; return the loop time it did."""
        loop = asyncio.get_running_loop()
        if predicate():
            return loop.time()
        seen: asyncio.Future[float] = loop.create_future()
        entry = (predicate, seen)
        watchers = self.watching.setdefault(channel.id, [])
        watchers.append(entry)
        try:
            async with asyncio.timeout(within):
                return await seen
        finally:
            if entry in watchers:
                watchers.remove(entry)

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
