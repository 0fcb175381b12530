"""Run the bot's SQL on PostgreSQL through a pool of asyncpg connections, riding out short blips.

Every wait is bounded below Discord's 3 s: a free pooled connection within ACQUIRE_TIMEOUT_S (a move, acknowledged
by then, within MOVE_ACQUIRE_TIMEOUT_S: storage/patience.py), a new connection
within CONNECT_TIMEOUT_S, a row lock within BUSY_TIMEOUT_MS, a statement within STATEMENT_TIMEOUT_MS on the
server, and, should the server stop answering at all, each read within QUERY_TIMEOUT_S and each transaction
within TRANSACTION_DEADLINE_S on the client: then the connection is cut (reset, its unsent bytes dropped), so a
change not yet committed can never apply later. A connection lost once COMMIT was sent raises CommitUnknown:
the change may have been saved. A read, and the connection and BEGIN of a transaction, are retried after a
blip (connection lost, server restarting) for up to RETRY_WITHIN_S; a write is not retried here (it may have
applied): a move retries at its own level, where the version guard tells a retry from a duplicate.
Owner-only work (storage/fencing.py) proves in each of its transactions that this process still holds its shards.
Pooled connections keep no session state (no LISTEN, no session advisory lock), so releasing one sends nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import struct
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from storage.errors import (
    BUSY_TIMEOUT_MS,
    RETRY_DELAYS,
    CommitUnknown,
    DatabaseBusy,
    DatabaseUnavailable,
    IntegrityError,
    Outage,
    StorageError,
    classify,
    describe,
)
from storage.fencing import Fence, in_owner_work
from storage.migrations import migrations_for
from storage.patience import acquire_timeout
from storage.sql import Row, Trips, Tx

T = TypeVar("T")
log = logging.getLogger("storage.backends")

MIGRATION_LOCK = 0x1CEF10E  # pg_advisory_lock key: one process migrates at a time
STATEMENT_TIMEOUT_MS = 2000
"""PostgreSQL cancels a statement running longer (it then reads as "busy"); longer than a lock wait."""
CONNECT_TIMEOUT_S = 2.0
"""How long opening one new connection to PostgreSQL may take (an unreachable host fails after this)."""
RETRY_WITHIN_S = 1.5
"""A read or a connection is retried after a blip only while less than this has passed since the first try."""
QUERY_TIMEOUT_S = 2.5
"""How long the client waits for any one answer of the server before it cuts the connection."""
TRANSACTION_DEADLINE_S = 2.5
"""How long a transaction may take from BEGIN to the reply to its COMMIT (a player waits at most 3 s)."""
IDLE_IN_TRANSACTION_MS = 5000
"""The server ends a session idle inside a transaction this long (its client vanished holding row locks)."""
MIGRATION_WAIT_S = 600
"""How long a starting process waits for another one's migration (a big table may take minutes)."""
KEEPALIVE = {"tcp_keepalives_idle": "5", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3",
             "tcp_user_timeout": "20000"}
"""The server's side: a session whose client vanished (a partition, a dead host) ends within 20 s."""


def keep_alive(conn: Any) -> None:
    """Probe a silent connection from the client too: a vanished server is noticed within 20 s."""
    raw = conn._transport.get_extra_info("socket") if getattr(conn, "_transport", None) else None
    if raw is None or raw.family not in (socket.AF_INET, socket.AF_INET6):
        return
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (("TCP_KEEPIDLE", 5), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3), ("TCP_USER_TIMEOUT", 20000)):
        if hasattr(socket, name):
            raw.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


def cut(conn: Any) -> None:
    """End a connection at once with a reset: bytes it has not delivered yet (a COMMIT, say) are dropped."""
    with contextlib.suppress(Exception):  # a connection already gone (or handed back) needs nothing more
        raw = conn._transport.get_extra_info("socket") if getattr(conn, "_transport", None) else None
        if raw is not None:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(Exception):
        conn.terminate()



_PLACEHOLDER = re.compile(r"\?")


def to_dollar(sql: str, _cache: dict[str, str] = {}) -> str:  # noqa: B006 - the cache is the point
    """Turn `?` placeholders into PostgreSQL's `$1, $2, ...` (the SQL here never has `?` inside a literal)."""
    found = _cache.get(sql)
    if found is None:
        counter = iter(range(1, 10_000))
        found = _cache[sql] = _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)
    return found


def _rowcount(status: str) -> int:
    """Read the row count from a command tag such as "UPDATE 1" or "INSERT 0 1"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresTx:
    def __init__(self, conn: Any, timeout: float | None = QUERY_TIMEOUT_S, trips: Trips | None = None) -> None:
        self.conn = conn
        self.timeout = timeout
        self.trips = trips or Trips()

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        import asyncpg

        self.trips.round_trips += 1
        try:
            return list(await self.conn.fetch(to_dollar(sql), *args, timeout=self.timeout))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        import asyncpg

        self.trips.round_trips += 1
        try:
            return _rowcount(await self.conn.execute(to_dollar(sql), *args, timeout=self.timeout))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import asyncpg

        self.trips.round_trips += 1  # asyncpg sends every row's statement, then waits once
        try:
            await self.conn.executemany(to_dollar(sql), [tuple(row) for row in rows], timeout=self.timeout)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc


class PostgresBackend:
    """Share a pool of asyncpg connections; concurrent processes are kept apart by row locks."""

    dialect = "postgresql"

    def __init__(self, url: str, *, pool_size: int = 10, statement_timeout_ms: int = STATEMENT_TIMEOUT_MS) -> None:
        self.url = url
        self.pool_size = max(1, pool_size)
        self.statement_timeout_ms = statement_timeout_ms
        self.outage = Outage()
        self.trips = Trips()
        self.timeout = None if statement_timeout_ms == 0 else max(QUERY_TIMEOUT_S, statement_timeout_ms / 1000 + 0.5)
        """How long the client waits for one answer (None for maintenance, whose statements are unbounded)."""
        self.deadline = None if statement_timeout_ms == 0 else TRANSACTION_DEADLINE_S
        self.fence: Fence | None = None
        """The shard lease's fencing token, proved by owner-only work (None: nothing is fenced)."""
        self._pool: Any = None

    @property
    def pool(self) -> Any:
        """Return the open connection pool."""
        if self._pool is None:
            raise StorageError("the database is not open")
        return self._pool

    async def open(self) -> None:
        """Open the pool and apply pending migrations, one process at a time."""
        import asyncpg

        self._pool = await asyncpg.create_pool(
            self.url,
            min_size=1,
            max_size=self.pool_size,
            statement_cache_size=256,
            timeout=CONNECT_TIMEOUT_S,
            init=self._connected,
            reset=self._keep_nothing,
            server_settings={
                "lock_timeout": str(BUSY_TIMEOUT_MS),
                "statement_timeout": str(self.statement_timeout_ms),
                "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS if self.timeout else 0),
                **KEEPALIVE,
            },
        )
        async with self.pool.acquire() as conn:
            await conn.execute("SET statement_timeout = 0")  # a migration may rewrite a big table
            await conn.execute(f"SET lock_timeout = '{MIGRATION_WAIT_S}s'")  # and another process may be at it
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                current = await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0
                for number, script in enumerate(migrations_for(self.dialect), start=1):
                    if number > current:
                        async with conn.transaction():
                            await conn.execute(script)
                            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
                await conn.execute("RESET statement_timeout; RESET lock_timeout")

    async def _keep_nothing(self, conn: Any) -> None:
        """Release a pooled connection without a reset query: end a transaction left open, nothing more."""
        if conn.is_in_transaction():
            self.trips.round_trips += 1
            await conn.execute("ROLLBACK")

    @staticmethod
    async def _connected(conn: Any) -> None:
        """Set up a new pooled connection: TCP keepalives on the client side."""
        keep_alive(conn)

    async def close(self) -> None:
        """Close the pool."""
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def schema_version(self) -> int:
        """Return the newest applied migration."""
        rows = await self.fetch("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0] or 0)

    def in_use(self) -> int:
        """Return how many pooled connections run a query or a transaction now."""
        if self._pool is None:
            return 0
        return int(self._pool.get_size() - self._pool.get_idle_size())

    async def ping(self) -> None:
        """Read one row; raise StorageError when the server does not answer."""
        await self.fetch("SELECT 1")

    async def _failed(self, error: BaseException, *, write: bool) -> BaseException:
        """Return the StorageError a driver error stands for, counted by the outage; drop connections that died."""
        converted = classify(error)
        if converted is None:
            return error
        if isinstance(converted, DatabaseUnavailable) and converted.transient and self._pool is not None:
            await self._pool.expire_connections()  # the other idle connections died with this one: reconnect them
        if isinstance(converted, DatabaseBusy) and converted is not error:
            log.warning("the database stayed busy past its timeout: %s", describe(error))
        self.outage.failed(converted, write=write)
        return converted

    async def _retrying(self, attempt: Callable[[], Awaitable[T]], *, write: bool) -> T:
        """Run `attempt`, again after a transient failure while RETRY_WITHIN_S has not passed."""
        began = time.monotonic()
        for delay in (*RETRY_DELAYS, None):
            try:
                result = await attempt()
            except StorageError:
                raise
            except Exception as exc:
                converted = classify(exc)
                retry = isinstance(converted, DatabaseUnavailable) and converted.transient
                if retry and self._pool is not None:
                    await self._pool.expire_connections()
                if not retry or delay is None or time.monotonic() - began + delay > RETRY_WITHIN_S:
                    converted = await self._failed(exc, write=write)
                    if converted is exc:
                        raise
                    raise converted from exc
                log.debug("retrying after a database blip: %s", exc)
                await asyncio.sleep(delay)
                continue
            self.outage.ok(write=write)
            return result
        raise AssertionError("unreachable")

    def _acquire(self) -> Any:
        """Return a pooled connection's context manager that waits at most ACQUIRE_TIMEOUT_S (a move: longer)."""
        return self.pool.acquire(timeout=acquire_timeout())

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Read on any pooled connection, retried after a blip; a server that does not answer is cut off."""

        async def attempt() -> list[Row]:
            async with self._acquire() as conn:
                try:
                    return await _PostgresTx(conn, self.timeout, self.trips).fetch(sql, args)
                except TimeoutError:
                    cut(conn)
                    raise DatabaseUnavailable(f"no answer within {self.timeout:g} s") from None

        return await self._retrying(attempt, write=False)

    async def stream(self, sql: str, args: Sequence[Any] = (), batch: int = 1000) -> AsyncIterator[list[Row]]:
        """Yield the rows of a large read a batch at a time from a server-side cursor."""
        async with self.pool.acquire() as conn, conn.transaction():
            cursor = await conn.cursor(to_dollar(sql), *args)
            while rows := await cursor.fetch(batch, timeout=self.timeout):
                self.trips.round_trips += 1
                yield list(rows)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one autocommitted write (not retried: a blip during it may or may not have applied it).

        Owner-only work runs it in a transaction that proves this process still holds its shards.
        """
        if self.fence is not None and in_owner_work():
            async with self.transaction() as tx:
                return await tx.execute(sql, args)
        return await self._autocommit(lambda tx: tx.execute(sql, args))

    async def write(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Run one autocommitted write and return the rows it returns: one round trip, one commit, not retried.

        Owner-only work runs it in a transaction that proves this process still holds its shards.
        """
        if self.fence is not None and in_owner_work():
            async with self._transaction(self.deadline) as tx:
                return await tx.fetch(sql, args)
        return await self._autocommit(lambda tx: tx.fetch(sql, args), self.deadline, lost_is_unknown=True)

    async def _autocommit(
        self,
        statement: Callable[[_PostgresTx], Awaitable[T]],
        deadline: float | None = None,
        *,
        lost_is_unknown: bool = False,
    ) -> T:
        """Run one statement as its own transaction on a pooled connection; an unanswered one raises CommitUnknown.

        With `deadline`, the wait for a connection and for the answer together last at most that many seconds.
        With `lost_is_unknown`, a connection that breaks once the statement was sent raises CommitUnknown too: the
        statement is its own COMMIT, so its lost reply leaves the change as uncertain as a lost COMMIT's.
        """
        import asyncpg

        began = time.monotonic()
        try:
            async with self._acquire() as conn:
                within = self.timeout
                if deadline is not None:
                    within = max(0.1, deadline - (time.monotonic() - began))
                try:
                    self.trips.commits += 1  # autocommitted: the statement is its own transaction
                    changed = await statement(_PostgresTx(conn, within, self.trips))
                except TimeoutError:
                    cut(conn)
                    raise CommitUnknown(f"no answer within {within:g} s") from None
                except (StorageError, asyncpg.PostgresError) as exc:
                    if not lost_is_unknown or not isinstance(exc, asyncpg.PostgresConnectionError):
                        raise  # the server answered with an error: nothing applied
                    cut(conn)
                    raise CommitUnknown(describe(exc)) from exc
                except Exception as exc:
                    if not lost_is_unknown:
                        raise
                    cut(conn)
                    raise CommitUnknown(describe(exc) if str(exc) else "no answer to the write") from exc
        except StorageError as exc:
            self.outage.failed(exc, write=True)
            raise
        except Exception as exc:
            converted = await self._failed(exc, write=True)
            if converted is exc:
                raise
            raise converted from exc
        self.outage.ok(write=True)
        return changed

    async def _begin(self) -> tuple[Any, Any]:
        """Acquire a connection and BEGIN on it, retried after a blip (nothing was sent yet)."""

        async def attempt() -> tuple[Any, Any]:
            conn = await self.pool.acquire(timeout=acquire_timeout())
            try:
                transaction = conn.transaction()
                self.trips.round_trips += 1
                await asyncio.wait_for(transaction.start(), QUERY_TIMEOUT_S)
            except BaseException as exc:
                if isinstance(exc, TimeoutError) or not isinstance(exc, Exception):
                    cut(conn)  # silent, or cancelled (shutdown) mid-BEGIN: it may hold a transaction nobody ends
                await self._release(conn)
                if isinstance(exc, TimeoutError):
                    raise DatabaseUnavailable(f"no answer to BEGIN within {QUERY_TIMEOUT_S:g} s") from None
                raise
            return conn, transaction

        return await self._retrying(attempt, write=True)

    async def _release(self, conn: Any) -> None:
        """Give a connection back to the pool; one that fails to go back is dropped, never reported."""
        try:
            await self.pool.release(conn, timeout=QUERY_TIMEOUT_S)
        except Exception as exc:  # the work on it is over (committed or rolled back): nothing to tell anyone
            log.debug("a connection could not go back to the pool: %s", exc)
            cut(conn)

    async def _commit(self, conn: Any, transaction: Any, within: float | None) -> None:
        """COMMIT; if no answer comes (the connection broke or went silent), raise CommitUnknown."""
        import asyncpg

        self.trips.round_trips += 1
        self.trips.commits += 1
        try:
            await asyncio.wait_for(transaction.commit(), within)
        except asyncpg.PostgresError as exc:
            if not isinstance(exc, asyncpg.PostgresConnectionError):
                raise  # the server answered with an error: it rolled back
            cut(conn)
            raise CommitUnknown(describe(exc)) from exc
        except Exception as exc:
            cut(conn)
            raise CommitUnknown(describe(exc) if str(exc) else "no answer to COMMIT") from exc

    def transaction(self) -> Any:
        """Run a block in one transaction on one pooled connection (each statement bounded, not the whole)."""
        return self._transaction(None)

    @asynccontextmanager
    async def _transaction(self, deadline: float | None) -> AsyncIterator[Tx]:
        """Run a block in one transaction on one pooled connection, within `deadline` seconds if given.

        A lock held too long raises DatabaseBusy; a server that stops answering gets its connection cut, so
        the transaction rolls back there and nothing applies later. Owner-only work first proves its fence.
        """
        began = time.monotonic()
        fence = self.fence if in_owner_work() else None
        if fence is not None:
            fence.proof()  # no token, no connection: FenceLost at once
        conn, transaction = await self._begin()
        try:
            try:
                left = None if deadline is None else max(0.1, deadline - (time.monotonic() - began))
                async with asyncio.timeout(left):
                    tx = _PostgresTx(conn, self.timeout, self.trips)
                    if fence is not None:
                        sql, args = fence.proof()
                        fence.check(len(await tx.fetch(sql, args)))
                    yield tx
            except BaseException as exc:
                if isinstance(exc, TimeoutError):
                    cut(conn)  # the server rolls back what it holds; what it never received can never apply
                    raise DatabaseUnavailable("no answer from the server in time; rolled back") from exc
                try:
                    self.trips.round_trips += 1
                    await asyncio.wait_for(transaction.rollback(), QUERY_TIMEOUT_S)
                except BaseException as rollback_error:  # gone, or cancelled again (shutdown): the server rolls back
                    log.debug("rollback failed: %r", rollback_error)
                    cut(conn)  # never handed back to the pool with its transaction open
                    if not isinstance(rollback_error, Exception):
                        raise
                raise
            within = self.timeout if deadline is None else max(0.2, deadline - (time.monotonic() - began))
            await self._commit(conn, transaction, within)
        except StorageError as exc:
            self.outage.failed(exc, write=True)
            raise
        except Exception as exc:
            converted = await self._failed(exc, write=True)
            if converted is exc:
                raise
            raise converted from exc
        finally:
            await self._release(conn)
        self.outage.ok(write=True)

    async def run(self, job: Callable[[Tx], Awaitable[T]], *, urgent: bool = False) -> T:
        """Run a transaction's body in one transaction within TRANSACTION_DEADLINE_S (a move, say: see Backend.run).

        Every write has a connection of its own. Past the deadline the change is refused, never applied later.
        """
        async with self._transaction(self.deadline) as tx:
            return await job(tx)
