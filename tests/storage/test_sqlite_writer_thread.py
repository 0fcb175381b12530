"""Fail the day aiosqlite changes the private part storage/sqlite.py runs a whole transaction through.

`SqliteBackend.run` hands a transaction's body to the writer connection's own thread in one trip with
aiosqlite's private `Connection._execute`, and runs it on the `sqlite3.Connection` that `Connection._conn`
returns (docs/ARCHITECTURE.md says why no public interface does the same). aiosqlite is pinned for that; these
tests say what the upgrade broke.
"""

from __future__ import annotations

import inspect
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import aiosqlite
import pytest

from storage.sql import Tx
from storage.sqlite import SqliteBackend


async def test_aiosqlite_runs_a_callable_on_its_connection_thread_with_its_sqlite3_connection(tmp_path: Path) -> None:
    conn = await aiosqlite.connect(tmp_path / "private.db", isolation_level=None)
    try:
        assert inspect.iscoroutinefunction(aiosqlite.Connection._execute), "Connection._execute is gone or not async"
        raw = conn._conn
        assert isinstance(raw, sqlite3.Connection), f"Connection._conn is a {type(raw).__name__} now"
        with pytest.raises(sqlite3.ProgrammingError):
            raw.execute("SELECT 1")  # sqlite3 refuses another thread: the callable below must run on aiosqlite's

        def job(value: int) -> tuple[int, int]:
            return threading.get_ident(), raw.execute("SELECT ?", (value,)).fetchone()[0]

        thread, value = await conn._execute(job, 7)
        assert value == 7 and thread != threading.get_ident()

        def fails() -> None:
            raise ZeroDivisionError("the callable's own error")

        with pytest.raises(ZeroDivisionError, match="the callable's own error"):
            await conn._execute(fails)
        assert (await conn.execute_fetchall("SELECT 8"))[0][0] == 8  # the thread goes on serving after an error
    finally:
        await conn.close()


async def test_a_transaction_run_by_the_backend_takes_one_trip_to_the_writer_thread(tmp_path: Path) -> None:
    backend = SqliteBackend(str(tmp_path / "floe.db"))
    await backend.open()
    writer = backend.writer
    trips: list[object] = []
    original = writer._execute

    async def counted(fn: Callable[..., object], *args: object, **kwargs: object) -> object:
        trips.append(fn)
        return await original(fn, *args, **kwargs)

    writer._execute = counted  # type: ignore[method-assign]  # aiosqlite's public calls hop through it too

    async def body(tx: Tx) -> int:
        await tx.execute("INSERT OR REPLACE INTO guild_settings (guild_id, reminder_hours) VALUES (1, 12)")
        await tx.execute("UPDATE guild_settings SET reminder_hours = 6 WHERE guild_id = 1")
        return len(await tx.fetch("SELECT * FROM guild_settings"))

    try:
        assert await backend.run(body) == 1
        assert len(trips) == 1, trips
        async with backend.transaction() as tx:  # the public way: a trip per statement, BEGIN and COMMIT too
            await body(tx)
        assert len(trips) - 1 >= 5, trips  # BEGIN, three statements, COMMIT
    finally:
        del writer._execute
        await backend.close()
