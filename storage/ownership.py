"""Make sure each shard runs in exactly one process: a lease per shard, and one shard count for all processes.

On PostgreSQL a process holds one session advisory lock per shard on a connection of its own, for as long as
it runs; PostgreSQL lets go of them when that connection ends (a SIGKILLed process's too), so a successor can
take over at once. Who holds each shard, the shard count and a new fencing token (`epoch`, storage/fencing.py)
are written to `shard_owners` at each claim. The lease is checked every KEEP_EVERY_S; when its connection ends
or a check goes unanswered for CHECK_TIMEOUT_S the token is withdrawn at once, so owner-only work stops, and a
successor lets TAKEOVER_GRACE_S pass before its own starts. A session holding a shard that has not answered its
checks for STALE_AFTER_S belongs to a dead or cut-off process: it is ended, so its shards are free (TCP
keepalives end it on the server's side within about 20 s too). On SQLite, where one process runs every shard,
the lease is an exclusive lock on a file beside the database. A process that finds its shard held by a live
process, or a different SHARD_COUNT in use, refuses to start (ShardTaken).
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
from storage.fencing import Fence
from storage.postgresql import KEEPALIVE, cut, keep_alive
from storage.rows import Shards

log = logging.getLogger(__name__)

REGISTRY_LOCK = 0x1CEF10F
"""pg_advisory_lock key held for a moment while a process checks and records its shards."""
KEEP_EVERY_S = 1.0
"""How often the lease connection is checked (and, when lost with a server restart, taken again)."""
CHECK_TIMEOUT_S = 1.0
"""A check unanswered this long puts the lease in doubt: owner-only work stops until the shards are retaken."""
TAKEOVER_GRACE_S = 3.0
"""How long a process taking over shards another ran waits before its owner-only work: the other has stopped."""
STALE_AFTER_S = 10.0
"""A shard's session silent this long (its owner checks every KEEP_EVERY_S) is a dead process's: it is ended."""


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
        self.fence = Fence()
        """The fencing token owner-only work proves (PostgreSQL); withdrawn while the lease is in doubt."""
        self.grace = TAKEOVER_GRACE_S
        self._conn: Any = None
        self._file: Any = None
        self._key: int | None = None
        self._pid: int | None = None
        """The server pid of the session holding the locks, to recognise it after a partition."""

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
        self._doubt()
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
            await self._hold(await self._claim())
        except BaseException:
            await self.release()
            raise

    async def _connect(self) -> Any:
        """Open the lease's own connection (waits are bounded: a stuck registry lock fails after 5 s)."""
        import asyncpg

        conn = await asyncpg.connect(
            self.target, timeout=5, server_settings={"lock_timeout": "5000", "statement_timeout": "5000", **KEEPALIVE}
        )
        keep_alive(conn)
        conn.add_termination_listener(self._ended)
        return conn

    def _ended(self, conn: Any) -> None:
        """Withdraw the token the moment the lease's connection ends (killed, reset, closed)."""
        if conn is self._conn and self.fence.held:
            log.warning("the connection holding shards %s ended", list(self.shards.ids))
            self._doubt()

    def _doubt(self) -> None:
        """Stop every owner-only write at once: the shards may be another process's now."""
        self.held = ()
        self.fence.withdraw()

    async def _hold(self, claim: tuple[int, bool]) -> None:
        """Hold the claimed shards: after another process's, only once it has had time to stop."""
        epoch, taken_over = claim
        if taken_over and self.grace:
            log.info("waiting %.0f s before running shards another process ran", self.grace)
            await asyncio.sleep(self.grace)
        if self._conn is None or self._conn.is_closed():
            raise ConnectionError("the connection holding the shards ended while taking them over")
        self._pid = self._conn.get_server_pid()
        self.fence.grant(epoch, self.shards.ids)
        self.held = self.shards.ids

    async def _claim(self) -> tuple[int, bool]:
        """Check the shard count and take each shard's lock, under the registry lock; write a new epoch.

        Return the epoch (the fencing token) and whether another process ran any of these shards before.
        """
        conn = self._conn
        # One lock namespace per schema, so test schemas (and separate bots on one server) never collide.
        self._key = await conn.fetchval("SELECT hashtext('ice-floe-shard:' || current_schema())")
        await conn.execute("SELECT pg_advisory_lock($1)", REGISTRY_LOCK)
        try:
            held = await self._held_elsewhere()
            counts = {h["shard_count"] for h in held if h["shard_count"]}
            if held and counts and counts != {self.shards.count}:
                raise ShardTaken(
                    f"SHARD_COUNT={self.shards.count} disagrees with SHARD_COUNT={min(counts)} of the running"
                    f" processes (shard {held[0]['shard']} is run by {held[0]['owner']}); stop them all to change"
                    " the shard count"
                )
            for shard in self.shards.ids:
                if not await self._lock(shard, next((h for h in held if h["shard"] == shard), None)):
                    owner = next((h["owner"] for h in held if h["shard"] == shard), "another process")
                    raise ShardTaken(f"shard {shard} of {self.shards.count} is already run by {owner}")
            before = await conn.fetch("SELECT owner FROM shard_owners WHERE shard = ANY($1::int[])", self.shards.ids)
            epoch = await conn.fetchval(
                "INSERT INTO shard_owners (shard, owner, shard_count, claimed_at, epoch)"
                " SELECT s, $2, $3, $4, (SELECT COALESCE(MAX(epoch), 0) + 1 FROM shard_owners) FROM unnest($1::int[]) s"
                " ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner, shard_count = excluded.shard_count,"
                " claimed_at = excluded.claimed_at, epoch = excluded.epoch RETURNING epoch",
                list(self.shards.ids), self.owner, self.shards.count, datetime.now(UTC).isoformat(),
            )
            if not held:  # nobody else runs: shards of an older, larger count are nobody's now
                await conn.execute("DELETE FROM shard_owners WHERE shard_count != $1 OR shard >= $1", self.shards.count)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", REGISTRY_LOCK)
        return int(epoch), any(r["owner"] != self.owner for r in before)

    async def _lock(self, shard: int, holder: Any) -> bool:
        """Take one shard's lock; end first a holder that is this process's old session or has gone silent."""
        conn = self._conn
        if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", self._key, shard):
            return True
        if holder is None or (holder["pid"] != self._pid and holder["silent"] < STALE_AFTER_S):
            return False
        log.warning(
            "shard %s is held by a session silent for %.0f s (%s): ending it to take the shard over",
            shard, holder["silent"], "this process's, from before the connection was lost"
            if holder["pid"] == self._pid else holder["owner"],
        )
        await conn.fetchval("SELECT pg_terminate_backend($1)", holder["pid"])
        for _ in range(50):
            if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", self._key, shard):
                return True
            await asyncio.sleep(0.1)
        return False

    async def _held_elsewhere(self) -> list[Any]:
        """Return shard, owner, shard_count, the session's pid and for how long it was silent, of other sessions."""
        rows = await self._conn.fetch(
            "SELECT l.objid::int AS shard, COALESCE(o.owner, 'another process') AS owner,"
            " COALESCE(o.shard_count, 0) AS shard_count, l.pid,"
            " COALESCE(EXTRACT(EPOCH FROM now() - COALESCE(a.state_change, a.backend_start)), 0)::float AS silent"
            " FROM pg_locks l LEFT JOIN shard_owners o ON o.shard = l.objid::int"
            " LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid::int = $1"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.pid != pg_backend_pid() ORDER BY 1",
            self._key,
        )
        return list(rows)

    async def keep(self, on_lost: Callable[[str], Awaitable[object]], every: float = KEEP_EVERY_S) -> None:
        """Check the lease connection until cancelled; after a server restart or a partition take the shards again.

        A check unanswered within CHECK_TIMEOUT_S withdraws the fencing token at once. Should another process
        have taken a shard meanwhile, `on_lost` is called with the reason (the bot stops).
        """
        if self.dialect != "postgresql":
            return
        while True:
            await asyncio.sleep(every)
            if self.fence.held:
                try:
                    await asyncio.wait_for(self._conn.fetchval("SELECT 1"), timeout=CHECK_TIMEOUT_S)
                    continue
                except Exception as exc:
                    log.warning("the connection holding shards %s failed its check: %s", list(self.shards.ids),
                                type(exc).__name__ if isinstance(exc, TimeoutError) else exc)
                    self._doubt()
            await self._retake(on_lost, every)

    async def _retake(self, on_lost: Callable[[str], Awaitable[object]], every: float) -> None:
        """Reconnect and take the shards again, trying until the server answers."""
        while True:
            if self._conn is not None:
                cut(self._conn)
            try:
                self._conn = await self._connect()
                await self._hold(await self._claim())
            except ShardTaken as exc:
                await on_lost(str(exc))
                return
            except Exception as exc:
                log.info("the shards cannot be taken again yet: %s", exc)
                await asyncio.sleep(every)
                continue
            log.warning("took shards %s again after the connection holding them was lost", list(self.held))
            return
