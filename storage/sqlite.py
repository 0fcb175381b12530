"""Run the bot's SQL on a SQLite file through aiosqlite: one writer connection, one reader, WAL."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.errors import BUSY_TIMEOUT_MS, DatabaseBusy, IntegrityError, Outage, StorageError, classify
from storage.migrations import migrations_for
from storage.sql import Row, Trips, Tx

log = logging.getLogger("storage.backends")
T = TypeVar("T")
PRIVATE_MODE = 0o600
"""The database holds interaction tokens and private hands: only the bot's own user may read its files."""
JOURNALS = ("", "-wal", "-shm", "-journal")


def keep_private(path: str) -> None:
    """Create the database file readable and writable by its owner alone, and close existing ones to others.

    SQLite gives its WAL and shared-memory files the database file's permissions, so a file created 0600 keeps
    them 0600 too; files left world-readable by an older version are tightened here.
    """
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_MODE))
    for suffix in JOURNALS:
        name = f"{path}{suffix}"
        try:
            mode = os.stat(name).st_mode & 0o777
            if mode & 0o077:
                os.chmod(name, mode & ~0o077)
        except FileNotFoundError:
            continue


def _sqlite_guard(error: BaseException, outage: Outage, *, write: bool = True) -> BaseException:
    """Return the StorageError a SQLite error stands for (counted by the outage), or the error itself."""
    if isinstance(error, aiosqlite.IntegrityError):
        return IntegrityError(str(error))
    converted = classify(error) if isinstance(error, sqlite3.Error) else None
    if converted is None:
        return error
    if isinstance(converted, DatabaseBusy):
        log.warning("the database stayed locked for %s ms: %s", BUSY_TIMEOUT_MS, error)
    outage.failed(converted, write=write)
    return converted


class _SqliteTx:
    def __init__(self, conn: aiosqlite.Connection, trips: Trips) -> None:
        self.conn = conn
        self.trips = trips

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        self.trips.round_trips += 1
        try:
            return list(await self.conn.execute_fetchall(sql, tuple(args)))
        except aiosqlite.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        self.trips.round_trips += 1
        try:
            async with self.conn.execute(sql, tuple(args)) as cur:
                return cur.rowcount
        except aiosqlite.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.trips.round_trips += 1
        try:
            await self.conn.executemany(sql, [tuple(row) for row in rows])
        except aiosqlite.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc


class _ThreadTx:
    """Run statements straight on the writer's sqlite3 connection, in the writer's own thread (see `run`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(self.conn.execute(sql, tuple(args)).fetchall())
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        try:
            return self.conn.execute(sql, tuple(args)).rowcount
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self.conn.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc


def _to_the_end(body: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits (it awaits only a _ThreadTx) to its end and return its result."""
    try:
        body.send(None)
    except StopIteration as finished:
        return cast(T, finished.value)
    body.close()
    raise RuntimeError("a transaction run by Backend.run may await nothing but its Tx")


class _WriterTurns:
    """Give SQLite's one writer to one write at a time, in order, urgent writes before the others waiting."""

    def __init__(self) -> None:
        self.held = False
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    @asynccontextmanager
    async def turn(self, *, urgent: bool = False) -> AsyncIterator[None]:
        """Hold the writer for a block, after the urgent writes (and then the others) that were waiting first."""
        if self.held:
            granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (0 if urgent else 1, next(self._arrivals), granted))
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._pass_on()  # granted just as it was cancelled: let the next one write
                raise
        else:
            self.held = True
        try:
            yield
        finally:
            self._pass_on()

    def _pass_on(self) -> None:
        """Hand the writer to the first write waiting that still wants it, or free it."""
        while self._waiting:
            _urgency, _arrival, granted = heapq.heappop(self._waiting)
            if not granted.done():
                granted.set_result(None)
                return
        self.held = False


class SqliteBackend:
    """Write through one connection (one writer at a time, as SQLite allows) and read through another."""

    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        self.outage = Outage()
        self.trips = Trips()
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._writer_turns = _WriterTurns()

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
        await conn.execute("PRAGMA secure_delete=ON")  # a deleted token is overwritten, not left in a free page
        await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return conn

    async def open(self) -> None:
        """Open the file in WAL mode, apply pending migrations, then open the reader."""
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            keep_private(self.path)
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

    @property
    def reader(self) -> aiosqlite.Connection:
        """Return the connection reads go through."""
        if self._reader is None:
            raise StorageError("the database is not open")
        return self._reader

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Read on the reader connection (one thread hop, never behind a write transaction)."""
        self.trips.round_trips += 1
        try:
            rows = list(await self.reader.execute_fetchall(sql, tuple(args)))
        except sqlite3.Error as exc:
            converted = _sqlite_guard(exc, self.outage, write=False)
            if converted is exc:
                raise
            raise converted from exc
        self.outage.ok(write=False)
        return rows

    async def stream(self, sql: str, args: Sequence[Any] = (), batch: int = 1000) -> AsyncIterator[list[Row]]:
        """Yield the rows of a large read a batch at a time from one cursor."""
        async with self.reader.execute(sql, tuple(args)) as cursor:
            while rows := list(await cursor.fetchmany(batch)):
                yield rows

    async def ping(self) -> None:
        """Read one row; raise StorageError when the file cannot be read."""
        await self.fetch("SELECT 1")

    def in_use(self) -> int:
        """Return 1 while a write holds the writer connection, else 0."""
        return int(self._writer_turns.held)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one write in its own transaction (one trip to the writer's thread)."""
        return await self.run(lambda tx: tx.execute(sql, args))

    async def write(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Run one write in its own transaction and return the rows it returns (one trip to the writer's thread)."""
        return await self.run(lambda tx: tx.fetch(sql, args))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """Hold the writer for a BEGIN IMMEDIATE ... COMMIT block; a lock held too long raises DatabaseBusy."""
        async with self._writer_turns.turn():
            self.trips.round_trips += 1
            try:
                await self.writer.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                converted = _sqlite_guard(exc, self.outage)
                if converted is exc:
                    raise
                raise converted from exc
            try:
                yield _SqliteTx(self.writer, self.trips)
                self.trips.round_trips += 1
                self.trips.commits += 1
                await self.writer.execute("COMMIT")
            except BaseException as exc:
                await self._rollback(exc)
                if isinstance(exc, sqlite3.Error):
                    converted = _sqlite_guard(exc, self.outage)
                    if converted is exc:
                        raise
                    raise converted from exc
                raise
        self.outage.ok(write=True)

    async def run(self, job: Callable[[Tx], Awaitable[T]], *, urgent: bool = False) -> T:
        """Run a transaction's body in one trip to the writer's thread (BEGIN IMMEDIATE ... COMMIT, see Backend.run)."""
        async with self._writer_turns.turn(urgent=urgent):
            self.trips.round_trips += 1  # BEGIN IMMEDIATE, the body and COMMIT (or ROLLBACK) in one hop
            try:
                # aiosqlite runs every call on its connection's own thread through its private _execute; so does
                # this one, as no public call can (docs/ARCHITECTURE.md; tests/storage/test_sqlite_writer_thread.py).
                result: T = await self.writer._execute(self._run_in_thread, job)
            except sqlite3.Error as exc:
                converted = _sqlite_guard(exc, self.outage)
                if converted is exc:
                    raise
                raise converted from exc
        self.trips.commits += 1
        self.outage.ok(write=True)
        return result

    def _run_in_thread(self, job: Callable[[Tx], Awaitable[T]]) -> T:
        """Run a transaction on the writer's thread; roll it back on any error (unless SQLite already did)."""
        conn = self.writer._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = _to_the_end(cast(Coroutine[Any, Any, T], job(_ThreadTx(conn))))
            conn.execute("COMMIT")
        except BaseException as error:
            if not conn.in_transaction:
                if isinstance(error, sqlite3.Error):
                    log.info("a database write failed and SQLite rolled it back: %s", error)
                raise
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error as rollback_error:
                log.info("a database write failed (%s); rolling it back failed too: %s", error, rollback_error)
            raise
        return result

    async def _rollback(self, error: BaseException) -> None:
        """Undo the open transaction after `error`; if SQLite already undid it (disk full), keep the real cause."""
        if not self.writer.in_transaction:
            if isinstance(error, sqlite3.Error):
                log.info("a database write failed and SQLite rolled it back: %s", error)
            return
        try:
            self.trips.round_trips += 1
            await self.writer.execute("ROLLBACK")
        except sqlite3.Error as rollback_error:
            log.info("a database write failed (%s); rolling it back failed too: %s", error, rollback_error)
