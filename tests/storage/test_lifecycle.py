"""Check when saved games fall due, how they pause and resume, and how they are abandoned (SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.fish import GAME
from storage.database import ABANDONED, ACTIVE, Database, GuildSettings, Seat
from storage.migrations import migrations_for
from tests.clock import Clock

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)



@pytest.fixture
def clock() -> Clock:
    """Return a clock the test moves by hand."""
    return Clock(START)


@pytest.fixture
async def db(database_url: str, clock: Clock):
    database = Database(database_url, clock=clock)
    await database.open()
    yield database
    await database.close()


async def started(db: Database, channel: int = 10, guild: int = 1) -> int:
    row = await db.create_game(
        guild_id=guild, channel_id=channel, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5
    )
    await db.seat_player(row.id, 101, "Bo", max_seats=4)
    await db.start_game(row.id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    return row.id


def at(hours: float) -> int:
    return int((START + timedelta(hours=hours)).timestamp())


async def due_ids(db: Database, clock: Clock) -> list[int]:
    return [row.id for row in await db.due_games(clock(), 0, 100)]


async def test_a_new_turn_falls_due_at_the_reminder_then_at_the_timeout(db: Database, clock: Clock) -> None:
    game_id = await started(db)
    assert (await db.game(game_id)).due_at == at(12)  # the default reminder delay
    await db.set_game_timers(game_id, 2, 5)
    assert (await db.game(game_id)).due_at == at(2)
    assert await due_ids(db, clock) == []
    clock.advance(2)
    assert await due_ids(db, clock) == [game_id]
    assert await db.mark_reminded(game_id, 1)
    assert (await db.game(game_id)).due_at == at(5)  # reminded once: next comes the timeout


async def test_a_server_setting_moves_the_due_time_of_its_games_only(db: Database, clock: Clock) -> None:
    here, elsewhere = await started(db, channel=10, guild=1), await started(db, channel=20, guild=2)
    await db.save_guild_settings(1, GuildSettings(reminder_hours=3))
    assert (await db.game(here)).due_at == at(3)
    assert (await db.game(elsewhere)).due_at == at(12)


async def test_a_finished_or_cancelled_game_is_never_due(db: Database, clock: Clock) -> None:
    game_id = await started(db)
    assert await db.set_status(game_id, "cancelled")
    clock.advance(100)
    assert await due_ids(db, clock) == []


async def test_a_pause_stops_the_timers_and_resuming_keeps_the_wait_before_it(db: Database, clock: Clock) -> None:
    game_id = await started(db)
    clock.advance(10)
    assert await db.pause(game_id, "Send Messages is missing")
    assert not await db.pause(game_id, "again")  # already paused: nobody is told twice
    row = await db.game(game_id)
    assert row.paused and row.due_at is None
    clock.advance(48)
    assert await due_ids(db, clock) == []
    assert await db.unpause(game_id)
    assert not await db.unpause(game_id)
    row = await db.game(game_id)
    assert not row.paused
    assert row.due_at == int((clock() + timedelta(hours=2)).timestamp())  # 10 of the 12 hours had passed


async def test_abandoning_a_channel_ends_its_open_game_and_keeps_its_history(db: Database, clock: Clock) -> None:
    game_id = await started(db, channel=10)
    other = await started(db, channel=11)
    await db.record_action(game_id, 1, {"s": 1}, seat=0, user_id=100, action={"a": 1}, events=[], finished=False)
    (gone,) = await db.abandon_channel(10)
    assert gone.id == game_id and [s.user_id for s in gone.seats] == [100, 101]
    row = await db.game(game_id)
    assert row.status == ABANDONED and row.due_at is None
    assert len(await db.actions(game_id)) == 1
    assert await db.abandon_channel(10) == []  # nothing open there any more
    assert not await db.set_status(game_id, "cancelled")
    assert (await db.game(other)).status == ACTIVE
    clock.advance(100)
    assert await due_ids(db, clock) == [other]


async def test_leaving_a_server_abandons_its_lobbies_and_games_only(db: Database) -> None:
    playing = await started(db, channel=10, guild=1)
    waiting = await db.create_game(
        guild_id=1, channel_id=11, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5
    )
    elsewhere = await started(db, channel=20, guild=2)
    assert sorted(row.id for row in await db.abandon_guild(1)) == [playing, waiting.id]
    assert (await db.game(elsewhere)).status == ACTIVE


async def test_a_version_2_file_keeps_every_game_seat_and_action_through_migration_3(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    with sqlite3.connect(path) as conn:
        for script in migrations_for("sqlite")[:2]:
            conn.executescript(script)
        conn.execute("PRAGMA user_version = 2")
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, kind, status, host_id, seed, state, version, created_at,"
            " updated_at) VALUES (7, 1, 10, 'fish', 'active', 100, 5, '{}', 1, ?, ?)",
            (START.isoformat(), START.isoformat()),
        )
        conn.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (7, 0, 100, 'Ana')")
        conn.execute(
            "INSERT INTO actions (game_id, version, action, events, created_at) VALUES (7, 1, '{}', '[]', ?)",
            (START.isoformat(),),
        )
    db = Database(path)
    await db.open()
    try:
        row = await db.game(7)
        assert (row.status, row.due_at, [s.name for s in row.seats]) == (ACTIVE, 0, ["Ana"])
        assert len(await db.actions(7)) == 1
        assert [r.id for r in await db.abandon_channel(10)] == [7]
        with pytest.raises(Exception, match="append-only"):
            await db.backend.execute("DELETE FROM actions")
        fresh = await db.create_game(
            guild_id=1, channel_id=10, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5
        )
        assert fresh.id == 8
    finally:
        await db.close()
