"""Check the storage side of reliability: the board outbox, short lock waits, disk full and huge ids."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from engine.fish import GAME
from storage.database import (
    ACTIVE,
    BUSY_TIMEOUT_MS,
    CANCELLED,
    Database,
    DatabaseBusy,
    Seat,
)
from storage.errors import DatabaseUnavailable, classify
from storage.migrations import migrations_for


@pytest.fixture
async def db(tmp_path: Path):
    database = Database(str(tmp_path / "games.db"))
    await database.open()
    yield database
    await database.close()


async def started(db: Database, channel: int = 10) -> int:
    row = await db.create_game(
        guild_id=1, channel_id=channel, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5
    )
    await db.seat_player(row.id, 101, "Bo", max_seats=4)
    await db.start_game(row.id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    return row.id


async def move(db: Database, game_id: int, version: int) -> int:
    return await db.record_action(
        game_id, version, {"v": version}, seat=0, user_id=100, action={"n": version}, events=[], finished=False
    )


async def test_a_saved_version_stays_behind_until_its_board_is_posted(db: Database) -> None:
    game_id = await started(db)
    assert [r.id for r in await db.games_behind()] == [game_id]
    await db.set_board_message(game_id, 555, version=1)
    assert await db.games_behind() == []
    version = await move(db, game_id, 1)
    row = await db.game(game_id)
    assert row is not None and row.board_behind and (row.version, row.posted_version) == (version, 1)
    await db.set_board_message(game_id, 556, version=version)
    await db.set_board_message(game_id, 554, version=1)  # an older board posted late changes nothing
    row = await db.game(game_id)
    assert row is not None and not row.board_behind and row.board_message_id == 556


async def test_cancelled_games_and_lobbies_have_no_board_to_post(db: Database) -> None:
    game_id = await started(db)
    await db.create_game(guild_id=1, channel_id=11, kind="fish", host=Seat(0, 1, "A"), options={}, seed=1)
    assert await db.set_status(game_id, CANCELLED)
    assert await db.games_behind() == []


async def test_an_old_file_counts_every_existing_board_as_posted(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        for number, script in enumerate(migrations_for("sqlite")[:3], start=1):
            conn.executescript(f"{script}\nPRAGMA user_version = {number};")
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, kind, status, host_id, seed, state, version, created_at,"
            " updated_at) VALUES (1, 10, 'fish', 'active', 1, 1, '{}', 7, 'x', 'x')"
        )
    database = Database(str(path))
    await database.open()
    try:
        row = await database.game(1)
        assert row is not None and (row.version, row.posted_version) == (7, 7)
        assert await database.games_behind() == []
    finally:
        await database.close()


async def test_a_number_too_large_for_sqlite_is_no_game(db: Database) -> None:
    await started(db)
    for number in (2**63, 2**64 + 1, -(2**63) - 1):
        assert await db.game(number) is None
        assert await db.actions(number) == []


async def test_a_locked_database_refuses_within_discords_window_and_changes_nothing(
    db: Database, tmp_path: Path
) -> None:
    assert BUSY_TIMEOUT_MS < 3000
    async with db.backend.writer.execute("PRAGMA busy_timeout") as cur:
        assert (await cur.fetchone())[0] == BUSY_TIMEOUT_MS
    game_id = await started(db)
    other = sqlite3.connect(tmp_path / "games.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseBusy, match="nothing was changed"):
            await move(db, game_id, 1)
    finally:
        other.execute("ROLLBACK")
        other.close()
    row = await db.game(game_id)
    assert row is not None and row.version == 1 and await db.actions(game_id) == []
    assert await move(db, game_id, 1) == 2  # the connection works again once the lock is gone


async def test_a_full_disk_is_named_logged_once_and_recovers_by_itself(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await started(db)
    async with db.backend.writer.execute("PRAGMA page_count") as cur:
        (pages,) = await cur.fetchone()
    await db.backend.writer.execute(f"PRAGMA max_page_count = {pages}")
    caplog.set_level(logging.INFO, logger="storage")
    for _ in range(5):  # five players try during one incident
        with pytest.raises(DatabaseUnavailable, match="cannot save games right now, so nothing was changed") as raised:
            await db.record_action(
                game_id, 1, {"big": "x" * 200_000}, seat=0, user_id=100, action={}, events=[], finished=False
            )
        assert isinstance(raised.value.__cause__, sqlite3.OperationalError)
        assert await db.game(game_id) is not None  # reads still work and do not end the incident
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "disk is full" in errors[0].getMessage()
    assert "cannot rollback" not in caplog.text
    await db.backend.writer.execute("PRAGMA max_page_count = 1073741823")
    row = await db.game(game_id)
    assert row is not None and row.version == 1 and row.status == ACTIVE
    assert await move(db, game_id, 1) == 2
    assert "answers again" in caplog.text
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1


async def test_a_read_only_database_is_named_not_a_bug(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    writable = Database(str(path))
    await writable.open()
    game_id = await started(writable)
    await writable.close()
    conn = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError) as raised:
            await conn.execute("UPDATE games SET version = 9 WHERE id = ?", (game_id,))
    finally:
        await conn.close()
    converted = classify(raised.value)
    assert isinstance(converted, DatabaseUnavailable)
    assert str(converted).startswith("The bot cannot save games right now, so nothing was changed.")


async def test_concurrent_outbox_marks_keep_the_newest_board(db: Database) -> None:
    game_id = await started(db)
    version = await move(db, game_id, 1)
    await asyncio.gather(
        db.set_board_message(game_id, 900 + version, version=version), db.set_board_message(game_id, 901, version=1)
    )
    row = await db.game(game_id)
    assert row is not None and row.posted_version == version and row.board_message_id == 900 + version
