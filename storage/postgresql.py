"""Run the bot's SQL on PostgreSQL through a pool of asyncpg connections, riding out short blips.

Every wait is bounded below Discord's 3 s: a free pooled connection within ACQUIRE_TIMEOUT_S, a new connection
within CONNECT_TIMEOUT_S, a row lock within BUSY_TIMEOUT_MS, a statement within STATEMENT_TIMEOUT_MS. A read,
and the connection and BEGIN of a transaction, are retried after a blip (connection lost, server restarting)
for up to RETRY_WITHIN_S; a write is not retried here (it may have applied): a move retries at its own level,
where the version guard tells a retry from a duplicate.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from storage.errors import (
    BUSY_TIMEOUT_MS,
    RETRY_DELAYS,
    DatabaseBusy,
    DatabaseUnavailable,
    IntegrityError,
    Outage,
    StorageError,
    classify,
)
from storage.migrations import migrations_for
from storage.sql import Row, Tx

T = TypeVar("T")
log = logging.getLogger("storage.backends")

MIGRATION_LOCK = 0x1CEF10E  # pg_advisory_lock key: one process migrates at a time
STATEMENT_TIMEOUT_MS = 2000
"""PostgreSQL cancels a statement running longer (it then reads as "busy"); longer than a lock wait."""
ACQUIRE_TIMEOUT_S = 1.0
"""How long a query waits for a free pooled connection (pool exhausted) before the player is told "busy"."""
CONNECT_TIMEOUT_S = 2.0
"""How long opening one new connection to PostgreSQL may take (an unreachable host fails after this)."""
RETRY_WITHIN_S = 1.5
"""A read or a connection is retried after a blip only while less than this has passed since the first try."""

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
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        import asyncpg

        try:
            return list(await self.conn.fetch(to_dollar(sql), *args))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        import asyncpg

        try:
            return _rowcount(await self.conn.execute(to_dollar(sql), *args))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import asyncpg

        try:
            await self.conn.executemany(to_dollar(sql), [tuple(row) for row in rows])
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
            server_settings={
                "lock_timeout": str(BUSY_TIMEOUT_MS),
                "statement_timeout": str(self.statement_timeout_ms),
            },
        )
        async with self.pool.acquire() as conn:
            await conn.execute("SET statement_timeout = 0")  # a migration may rewrite a big table
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
                await conn.execute("RESET statement_timeout")

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
            log.warning("the database stayed busy past its timeout: %s", error)
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
        """Return a pooled connection's context manager that waits at most ACQUIRE_TIMEOUT_S."""
        return self.pool.acquire(timeout=ACQUIRE_TIMEOUT_S)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Read on any pooled connection, retried after a blip."""

        async def attempt() -> list[Row]:
            async with self._acquire() as conn:
                return await _PostgresTx(conn).fetch(sql, args)

        return await self._retrying(attempt, write=False)

    async def stream(self, sql: str, args: Sequence[Any] = (), batch: int = 1000) -> AsyncIterator[list[Row]]:
        """Yield the rows of a large read a batch at a time from a server-side cursor."""
        async with self.pool.acquire() as conn, conn.transaction():
            cursor = await conn.cursor(to_dollar(sql), *args)
            while rows := await cursor.fetch(batch):
                yield list(rows)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one autocommitted write (not retried: a blip during it may or may not have applied it)."""
        try:
            async with self._acquire() as conn:
                changed = await _PostgresTx(conn).execute(sql, args)
        except StorageError:
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
            conn = await self.pool.acquire(timeout=ACQUIRE_TIMEOUT_S)
            try:
                transaction = conn.transaction()
                await transaction.start()
            except BaseException:
                await self.pool.release(conn)
                raise
            return conn, transaction

        return await self._retrying(attempt, write=True)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """Run a block in one transaction on one pooled connection; a lock held too long raises DatabaseBusy."""
        conn, transaction = await self._begin()
        try:
            try:
                yield _PostgresTx(conn)
            except BaseException:
                try:
                    await transaction.rollback()
                except Exception as rollback_error:  # the connection is gone: the server rolled it back
                    log.debug("rollback failed: %s", rollback_error)
                raise
            await transaction.commit()
        except StorageError:
            raise
        except Exception as exc:
            converted = await self._failed(exc, write=True)
            if converted is exc:
                raise
            raise converted from exc
        finally:
            await self.pool.release(conn)
        self.outage.ok(write=True)

    async def run(self, job: Callable[[Tx], Awaitable[T]], *, urgent: bool = False) -> T:
        """Run a transaction's body in one transaction (see Backend.run; every write has a connection of its own)."""
        async with self.transaction() as tx:
            return await job(tx)
