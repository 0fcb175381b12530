"""Run SQL on SQLite (aiosqlite) or PostgreSQL (asyncpg) through one small interface.

Queries are written once, with `?` placeholders; the PostgreSQL backend turns them into `$1, $2, ...`.
Rows come back as mappings that also index by position (aiosqlite.Row, asyncpg.Record).

- `fetch(sql, args)` reads without taking the write lock: on SQLite a separate reader connection (WAL lets
  readers run beside the writer), on PostgreSQL any pooled connection.
- `execute(sql, args)` runs one write on its own and returns the number of rows it changed.
- `async with backend.transaction() as tx:` runs several statements (`tx.fetch`, `tx.execute`) atomically;
  on SQLite it is BEGIN IMMEDIATE on the single writer connection, on PostgreSQL a pooled connection's
  transaction (READ COMMITTED: a guarded `UPDATE ... WHERE version = ?` waits for a concurrent writer of the
  same row and then re-checks its condition, so only one of two racing writes matches).
A unique or foreign-key violation raises IntegrityError on both.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from storage.migrations import migrations_for

Row = Mapping[str, Any]
SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")
MIGRATION_LOCK = 0x1CEF10E  # pg_advisory_lock key: one process migrates at a time
BUSY_TIMEOUT_MS = 1500
"""How long a write waits for another writer's lock: well inside Discord's 3 s to acknowledge an interaction."""
BUSY_TEXT = "The game's database is busy right now, so nothing was changed. Please try again in a moment."

log = logging.getLogger(__name__)


class StorageError(Exception):
    """Raise when the database refuses a change."""


class IntegrityError(StorageError):
    """Raise when a change breaks a unique or foreign-key constraint."""


class DatabaseBusy(StorageError):
    """Raise when another writer held the database longer than a player can wait; nothing was changed."""


def busy(error: BaseException) -> DatabaseBusy | None:
    """Return DatabaseBusy for SQLite's "database is locked" (after busy_timeout) or PostgreSQL's lock_timeout."""
    text = str(error)
    locked = isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
    if locked or type(error).__name__ == "LockNotAvailableError":
        log.warning("the database stayed locked for %s ms: %s", BUSY_TIMEOUT_MS, error)
        return DatabaseBusy(BUSY_TEXT)
    return None


class Tx(Protocol):
    """Run statements inside one transaction."""

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Return every row of a query."""
        ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run a statement and return how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run a statement once per row of arguments."""
        ...


class Backend(Protocol):
    """Open, migrate and query one database."""

    dialect: str

    async def open(self) -> None:
        """Connect and apply pending migrations."""
        ...

    async def close(self) -> None:
        """Disconnect."""
        ...

    async def schema_version(self) -> int:
        """Return how many migrations the database has."""
        ...

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Return every row of a read-only query, without waiting for writers."""
        ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one write in its own transaction and return how many rows it changed."""
        ...

    def transaction(self) -> Any:
        """Return an async context manager yielding a Tx; commit on success, roll back on error."""
        ...


def sqlite_path(url: str) -> str:
    """Turn a DATABASE_URL such as sqlite:///data/ice_floe.db into a file path."""
    if not url.startswith(SQLITE_PREFIX):
        raise ValueError(f"DATABASE_URL must start with {SQLITE_PREFIX} (got {url!r})")
    path = url[len(SQLITE_PREFIX) :]
    if not path:
        raise ValueError("DATABASE_URL names no file")
    return path


def is_postgres(url: str) -> bool:
    """Tell whether a DATABASE_URL names a PostgreSQL server."""
    return url.startswith(POSTGRES_PREFIXES)


def make_backend(target: str, *, pool_size: int = 10) -> Backend:
    """Return the backend for a DATABASE_URL (sqlite:///..., postgresql://...) or a plain SQLite file path."""
    if is_postgres(target):
        return PostgresBackend(target, pool_size=pool_size)
    if target.startswith("sqlite:"):
        return SqliteBackend(sqlite_path(target))
    if "://" in target:
        raise ValueError(f"DATABASE_URL must start with {SQLITE_PREFIX} or postgresql:// (got {target!r})")
    return SqliteBackend(target)


# -- SQLite -----------------------------------------------------------------------------------------------


class _SqliteTx:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self.conn.execute_fetchall(sql, tuple(args)))
        except aiosqlite.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        try:
            async with self.conn.execute(sql, tuple(args)) as cur:
                return cur.rowcount
        except aiosqlite.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self.conn.executemany(sql, [tuple(row) for row in rows])
        except aiosqlite.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc


class SqliteBackend:
    """Write through one connection (one writer at a time, as SQLite allows) and read through another."""

    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()

    @property
    def writer(self) -> aiosqlite.Connection:
        """Return the connection every write goes through."""
        if self._writer is None:
            raise StorageError("the database is not open")
        return self._writer

    async def _connect(self) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return conn

    async def open(self) -> None:
        """Open the file in WAL mode, apply pending migrations, then open the reader."""
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._writer = await self._connect()
        await self._migrate()
        # An in-memory database exists once per connection, so it is read through the writer.
        self._reader = self._writer if self.path == ":memory:" else await self._connect()

    async def _migrate(self) -> None:
        """Apply every migration newer than the file's user_version, checking foreign keys before each commit."""
        scripts = migrations_for(self.dialect)
        (current,) = (await self.writer.execute_fetchall("PRAGMA user_version"))[0]
        if current >= len(scripts):
            return
        await self.writer.execute("PRAGMA foreign_keys=OFF")  # a migration may rebuild a table others refer to
        try:
            for number, script in enumerate(scripts, start=1):
                if number <= current:
                    continue
                await self.writer.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};")
                broken = await self.writer.execute_fetchall("PRAGMA foreign_key_check")
                if broken:
                    await self.writer.execute("ROLLBACK")
                    raise StorageError(f"migration {number} broke {len(list(broken))} foreign key(s)")
                await self.writer.execute("COMMIT")
        finally:
            await self.writer.execute("PRAGMA foreign_keys=ON")

    async def close(self) -> None:
        """Close both connections."""
        if self._reader is not None and self._reader is not self._writer:
            await self._reader.close()
        if self._writer is not None:
            await self._writer.close()
        self._reader = self._writer = None

    async def schema_version(self) -> int:
        """Return the file's user_version."""
        (version,) = (await self.writer.execute_fetchall("PRAGMA user_version"))[0]
        return int(version)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Read on the reader connection (one thread hop, never behind a write transaction)."""
        if self._reader is None:
            raise StorageError("the database is not open")
        return list(await self._reader.execute_fetchall(sql, tuple(args)))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one autocommitted write."""
        async with self._write_lock:
            try:
                return await _SqliteTx(self.writer).execute(sql, args)
            except sqlite3.OperationalError as exc:
                raise busy(exc) or exc from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """Hold the writer for a BEGIN IMMEDIATE ... COMMIT block; a lock held too long raises DatabaseBusy."""
        async with self._write_lock:
            try:
                await self.writer.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise busy(exc) or exc from exc
            try:
                yield _SqliteTx(self.writer)
                await self.writer.execute("COMMIT")
            except BaseException as exc:
                await self._rollback(exc)
                if isinstance(exc, sqlite3.OperationalError) and (converted := busy(exc)):
                    raise converted from exc
                raise

    async def _rollback(self, error: BaseException) -> None:
        """Undo the open transaction after `error`; if SQLite already undid it (disk full), keep the real cause."""
        if not self.writer.in_transaction:
            if isinstance(error, sqlite3.Error):
                log.warning("a database write failed and SQLite rolled it back: %s", error)
            return
        try:
            await self.writer.execute("ROLLBACK")
        except sqlite3.Error as rollback_error:
            log.warning("a database write failed (%s); rolling it back failed too: %s", error, rollback_error)


# -- PostgreSQL -------------------------------------------------------------------------------------------

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

    def __init__(self, url: str, *, pool_size: int = 10) -> None:
        self.url = url
        self.pool_size = max(1, pool_size)
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
            server_settings={"lock_timeout": str(BUSY_TIMEOUT_MS)},
        )
        async with self.pool.acquire() as conn:
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

    async def close(self) -> None:
        """Close the pool."""
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def schema_version(self) -> int:
        """Return the newest applied migration."""
        return int(await self.pool.fetchval("SELECT MAX(version) FROM schema_version") or 0)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Read on any pooled connection."""
        async with self.pool.acquire() as conn:
            return await _PostgresTx(conn).fetch(sql, args)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one autocommitted write."""
        async with self.pool.acquire() as conn:
            try:
                return await _PostgresTx(conn).execute(sql, args)
            except Exception as exc:
                raise busy(exc) or exc from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """Run a block in one transaction on one pooled connection; a lock held too long raises DatabaseBusy."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                yield _PostgresTx(conn)
        except Exception as exc:
            converted = busy(exc)
            if converted is None:
                raise
            raise converted from exc
