"""Make sure each shard runs in exactly one process: a lease per shard, and one shard count for all processes.

On PostgreSQL a process holds one session advisory lock per shard on a connection of its own, for as long as
it runs; PostgreSQL lets go of them when that connection ends (a SIGKILLed process's too), so a successor can
take over at once. Who holds each shard, and the shard count, are written to `shard_owners` for the message
a refused process prints. On SQLite, where one process runs every shard, the lease is an exclusive lock on a
file beside the database. A process that finds its shard held, or a different SHARD_COUNT in use, refuses
to start (ShardTaken).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from storage.errors import StorageError
from storage.rows import Shards

log = logging.getLogger(__name__)

REGISTRY_LOCK = 0x1CEF10F
"""pg_advisory_lock key held for a moment while a process checks and records its shards."""
KEEP_EVERY_S = 5.0
"""How often the lease connection is checked (and, when lost with a server restart, taken again)."""


class ShardTaken(StorageError):
    """Raise when another process runs this shard, or the running processes use another SHARD_COUNT."""


def describe_process() -> str:
    """Return how this process is named to operators: host, pid and start time."""
    return f"{socket.gethostname()} pid {os.getpid()} (started {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC)"


class ShardLease:
    """Hold this process's shards for as long as it runs; `held` tells which it holds right now."""

    def __init__(self, url_or_path: str, shards: Shards, *, dialect: str, owner: str | None = None) -> None:
        self.target = url_or_path
        self.shards = shards
        self.dialect = dialect
        self.owner = owner or describe_process()
        self.held: tuple[int, ...] = ()
        self._conn: Any = None
        self._file: Any = None
        self._key: int | None = None

    async def acquire(self) -> None:
        """Take every shard of this process, or raise ShardTaken saying who holds one."""
        if self.dialect == "postgresql":
            await self._acquire_postgres()
        else:
            self._acquire_file()
        self.held = self.shards.ids
        log.info("running shards %s of %s as %s", list(self.held), self.shards.count, self.owner)

    async def release(self) -> None:
        """Let go of every shard (also done by PostgreSQL or the kernel when the process dies)."""
        self.held = ()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._conn.close(), timeout=2)
            self._conn = None
        if self._file is not None:
            self._file.close()
            self._file = None

    # -- SQLite: one file lock -------------------------------------------------------------------------------

    def _acquire_file(self) -> None:
        if self.target == ":memory:":
            return
        path = Path(self.target + ".lock")
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise ShardTaken(f"the database {self.target} is already used by {holder}; stop it first") from None
        handle.seek(0)
        handle.truncate()
        handle.write(self.owner + "\n")
        handle.flush()
        self._file = handle

    # -- PostgreSQL: advisory locks on a connection of our own -----------------------------------------------

    async def _acquire_postgres(self) -> None:
        self._conn = await self._connect()
        try:
            await self._claim()
        except BaseException:
            await self.release()
            raise

    async def _connect(self) -> Any:
        """Open the lease's own connection (waits are bounded: a stuck registry lock fails after 5 s)."""
        import asyncpg

        return await asyncpg.connect(self.target, timeout=5, server_settings={"lock_timeout": "5000"})

    async def _claim(self) -> None:
        """Check the shard count and take each shard's lock, under the registry lock."""
        conn = self._conn
        # One lock namespace per schema, so test schemas (and separate bots on one server) never collide.
        self._key = await conn.fetchval("SELECT hashtext('ice-floe-shard:' || current_schema())")
        await conn.execute("SELECT pg_advisory_lock($1)", REGISTRY_LOCK)
        try:
            held = await self._held_elsewhere()
            counts = {count for _, _, count in held if count}
            if held and counts and counts != {self.shards.count}:
                shard, owner, _ = held[0]
                raise ShardTaken(
                    f"SHARD_COUNT={self.shards.count} disagrees with SHARD_COUNT={min(counts)} of the running"
                    f" processes (shard {shard} is run by {owner}); stop them all to change the shard count"
                )
            for shard in self.shards.ids:
                if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", self._key, shard):
                    owner = next((o for s, o, _ in held if s == shard), "another process")
                    raise ShardTaken(f"shard {shard} of {self.shards.count} is already run by {owner}")
            now = datetime.now(UTC).isoformat()
            await conn.executemany(
                "INSERT INTO shard_owners (shard, owner, shard_count, claimed_at) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner, shard_count = excluded.shard_count,"
                " claimed_at = excluded.claimed_at",
                [(shard, self.owner, self.shards.count, now) for shard in self.shards.ids],
            )
            if not held:  # nobody else runs: shards of an older, larger count are nobody's now
                await conn.execute("DELETE FROM shard_owners WHERE shard_count != $1 OR shard >= $1", self.shards.count)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", REGISTRY_LOCK)

    async def _held_elsewhere(self) -> list[tuple[int, str, int]]:
        """Return (shard, owner, shard_count) of every shard lock other sessions hold in this schema."""
        rows = await self._conn.fetch(
            "SELECT l.objid::int AS shard, o.owner, o.shard_count FROM pg_locks l"
            " LEFT JOIN shard_owners o ON o.shard = l.objid::int"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid::int = $1"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.pid != pg_backend_pid() ORDER BY 1",
            self._key,
        )
        return [(r["shard"], r["owner"] or "another process", r["shard_count"] or 0) for r in rows]

    async def keep(self, on_lost: Callable[[str], Awaitable[object]], every: float = KEEP_EVERY_S) -> None:
        """Check the lease connection until cancelled; after a server restart take the shards again.

        Should another process have taken one meanwhile, `on_lost` is called with the reason (the bot stops).
        """
        if self.dialect != "postgresql":
            return
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.wait_for(self._conn.fetchval("SELECT 1"), timeout=every)
                continue
            except Exception as exc:
                log.warning("lost the connection holding shards %s: %s", list(self.shards.ids), exc)
                self.held = ()
            await self._retake(on_lost, every)

    async def _retake(self, on_lost: Callable[[str], Awaitable[object]], every: float) -> None:
        """Reconnect and take the shards again, trying until the server answers."""
        while True:
            with contextlib.suppress(Exception):
                self._conn.terminate()
            try:
                self._conn = await self._connect()
                await self._claim()
            except ShardTaken as exc:
                await on_lost(str(exc))
                return
            except Exception as exc:
                log.info("the shards cannot be taken again yet: %s", exc)
                await asyncio.sleep(every)
                continue
            self.held = self.shards.ids
            log.warning("took shards %s again after the database came back", list(self.held))
            return
