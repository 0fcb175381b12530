"""Check how DATABASE_URL picks a backend and how one query text runs on both dialects."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from storage import patience
from storage.backends import DatabaseBusy, PostgresBackend, SqliteBackend, make_backend, to_dollar
from storage.database import Database
from storage.errors import IntegrityError
from storage.migrations import MIGRATIONS
from storage.sql import Tx
from storage.sqlite import _WriterTurns
from tests.postgres import free_port


def test_the_url_picks_the_backend() -> None:
    assert isinstance(make_backend("sqlite:///data/ice_floe.db"), SqliteBackend)
    assert isinstance(make_backend("data/plain.db"), SqliteBackend)
    postgres = make_backend("postgresql://floe:secret@db:5432/floe", pool_size=7)
    assert isinstance(postgres, PostgresBackend) and postgres.pool_size == 7
    assert isinstance(make_backend("postgres://db/floe"), PostgresBackend)
    with pytest.raises(ValueError, match="postgresql://"):
        make_backend("mysql://db/floe")


def test_question_marks_become_numbered_parameters_for_postgresql() -> None:
    assert to_dollar("UPDATE games SET a = ?, b = ? WHERE id = ? AND s IN (?, ?)") == (
        "UPDATE games SET a = $1, b = $2 WHERE id = $3 AND s IN ($4, $5)"
    )
    assert to_dollar("SELECT 1") == "SELECT 1"


async def test_six_processes_starting_on_a_fresh_postgresql_migrate_it_exactly_once(postgres_url: str) -> None:
    pools = [PostgresBackend(postgres_url, pool_size=2) for _ in range(6)]
    try:
        await asyncio.gather(*(pool.open() for pool in pools))  # as six bot processes started at once
        assert {await pool.schema_version() for pool in pools} == {len(MIGRATIONS)}
        applied = await pools[0].fetch("SELECT version FROM schema_version ORDER BY version")
        assert [row[0] for row in applied] == list(range(1, len(MIGRATIONS) + 1))  # each once, in order
    finally:
        await asyncio.gather(*(pool.close() for pool in pools))


async def test_a_pool_with_no_free_connection_or_a_slow_statement_answers_busy_in_time(postgres_url: str) -> None:
    backend = PostgresBackend(postgres_url, pool_size=1)
    await backend.open()
    try:
        async with backend.transaction():  # holds the only connection
            began = time.monotonic()
            with pytest.raises(DatabaseBusy):
                await backend.fetch("SELECT 1")
            assert time.monotonic() - began < 2.9
        began = time.monotonic()
        with pytest.raises(DatabaseBusy):
            await backend.fetch("SELECT pg_sleep(10)")
        assert time.monotonic() - began < 2.9
        assert await backend.fetch("SELECT 1")  # and the pool is fine afterwards
    finally:
        await backend.close()


async def test_a_move_waits_longer_for_a_pooled_connection_than_a_read(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(patience, "ACQUIRE_TIMEOUT_S", 0.2)
    monkeypatch.setattr(patience, "MOVE_ACQUIRE_TIMEOUT_S", 30.0)
    backend = PostgresBackend(postgres_url, pool_size=1)
    await backend.open()
    try:
        held = asyncio.Event()
        done = asyncio.Event()

        async def hold_the_only_connection() -> None:
            async with backend.transaction():
                held.set()
                await done.wait()

        holder = asyncio.create_task(hold_the_only_connection())
        await held.wait()
        with pytest.raises(DatabaseBusy):
            await backend.fetch("SELECT 1")  # a read (autocomplete) gives up: its answer is due
        with patience.patient():
            move = asyncio.create_task(backend.fetch("SELECT 2"))
            await asyncio.sleep(0.5)  # longer than a read waits
        assert not move.done()
        done.set()
        assert [tuple(row) for row in await move] == [(2,)]  # the move got the connection once it was free
        await holder
    finally:
        await backend.close()


async def test_a_transaction_cancelled_again_while_rolling_back_is_never_handed_back_open(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shutdown cancels a move twice: its connection must not go back to the pool inside its transaction."""
    import asyncpg.transaction

    backend = PostgresBackend(postgres_url, pool_size=1)
    await backend.open()
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    reported: list[str] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(str(context.get("message"))))
    rollback = asyncpg.transaction.Transaction.rollback
    rolling_back = asyncio.Event()

    async def slow_rollback(self: asyncpg.transaction.Transaction) -> None:
        rolling_back.set()
        await asyncio.sleep(10)
        await rollback(self)

    monkeypatch.setattr(asyncpg.transaction.Transaction, "rollback", slow_rollback)
    try:
        inside = asyncio.Event()

        async def job(tx: Tx) -> None:
            inside.set()
            await asyncio.sleep(30)

        task = asyncio.create_task(backend.run(job))
        await inside.wait()
        task.cancel()
        await rolling_back.wait()
        task.cancel()  # cancelled again while it rolls back
        with pytest.raises(asyncio.CancelledError):
            await task
        monkeypatch.undo()
        assert [tuple(row) for row in await backend.fetch("SELECT 1")] == [(1,)]
        assert not [message for message in reported if "active transaction" in message], reported
    finally:
        loop.set_exception_handler(previous)
        await backend.close()


async def test_an_unreachable_server_is_named_within_discords_window() -> None:
    backend = PostgresBackend(f"postgresql://nobody@127.0.0.1:{free_port()}/none", pool_size=1)
    began = time.monotonic()
    with pytest.raises(OSError):  # at start-up the bot refuses to start with the driver's own message
        await backend.open()
    assert time.monotonic() - began < 2.9


@pytest.fixture
async def opened(database_url: str):
    """Return an open database on SQLite, then on PostgreSQL."""
    database = Database(database_url)
    await database.open()
    yield database
    await database.close()


async def test_a_transaction_run_at_once_commits_all_its_statements_or_none(opened: Database) -> None:
    backend = opened.backend

    async def both(tx: Tx) -> int:
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("a", "1"))
        await tx.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [("b", "2"), ("c", "3")])
        return len(await tx.fetch("SELECT key FROM meta WHERE key IN ('a', 'b', 'c')"))

    assert await backend.run(both) == 3

    async def half(tx: Tx) -> None:
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("d", "4"))
        raise LookupError("the move turned out to be stale")

    with pytest.raises(LookupError):
        await backend.run(half)
    with pytest.raises(IntegrityError):
        await backend.run(lambda tx: tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("a", "again")))
    rows = await backend.fetch("SELECT key, value FROM meta WHERE key IN ('a', 'b', 'c', 'd') ORDER BY key")
    assert [(r[0], r[1]) for r in rows] == [("a", "1"), ("b", "2"), ("c", "3")]
    assert await backend.execute("UPDATE meta SET value = ? WHERE key = ?", ("9", "c")) == 1


async def test_a_transaction_run_at_once_on_sqlite_may_not_wait_on_anything_else(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'games.db'}")
    await database.open()
    try:

        async def waits(tx: Tx) -> None:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("e", "5"))
            await asyncio.sleep(0)

        with pytest.raises(RuntimeError, match="nothing but its Tx"):
            await database.backend.run(waits)
        assert await database.backend.fetch("SELECT key FROM meta WHERE key = 'e'") == []
    finally:
        await database.close()


async def test_sqlite_gives_its_writer_to_urgent_writes_first_then_in_order() -> None:
    turns = _WriterTurns()
    order: list[str] = []

    async def write(name: str, *, urgent: bool = False, hold: float = 0.0) -> None:
        async with turns.turn(urgent=urgent):
            order.append(name)
            await asyncio.sleep(hold)

    first = asyncio.create_task(write("first", hold=0.05))
    await asyncio.sleep(0)
    waiting = [
        asyncio.create_task(write("move 1")),
        asyncio.create_task(write("gone")),
        asyncio.create_task(write("move 2")),
        asyncio.create_task(write("promise", urgent=True)),
    ]
    await asyncio.sleep(0)
    waiting[1].cancel()
    await asyncio.gather(first, *waiting, return_exceptions=True)
    assert order == ["first", "promise", "move 1", "move 2"]
    assert not turns.held


async def test_a_process_starting_while_another_migrates_for_long_waits_for_it(postgres_url: str) -> None:
    import asyncpg

    from storage.backends import MIGRATION_LOCK

    migrating = await asyncpg.connect(postgres_url)
    await migrating.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)  # a long migration elsewhere
    backend = PostgresBackend(postgres_url, pool_size=2)
    opening = asyncio.create_task(backend.open())
    try:
        await asyncio.sleep(2.5)  # longer than a lock is waited for during play
        assert not opening.done(), opening.exception() if opening.done() else None
        await migrating.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        await asyncio.wait_for(opening, 30)
        assert await backend.schema_version() == len(MIGRATIONS)
        rows = await backend.fetch("SHOW lock_timeout")
        assert rows[0][0] != "0", "the migration's long lock wait leaked into play"
    finally:
        await migrating.close()
        await backend.close()


async def test_the_newest_game_of_a_channel_is_found_by_index(database_url: str) -> None:
    db = Database(database_url)
    await db.open()
    try:
        if db.backend.dialect == "sqlite":
            plan = await db.backend.fetch("EXPLAIN QUERY PLAN SELECT MAX(id) FROM games WHERE channel_id = ?", (5,))
            text = " ".join(str(row[-1]) for row in plan)
        else:
            async with db.backend.transaction() as tx:  # an empty table: ask whether the index is usable
                await tx.execute("SET LOCAL enable_seqscan = off")
                plan = await tx.fetch("EXPLAIN SELECT MAX(id) FROM games WHERE channel_id = 5")
            text = " ".join(str(row[0]) for row in plan)
        assert "games_by_channel" in text, text
    finally:
        await db.close()
