"""Check the game's standing turn ping (migration 22): kept across a restart, replaced only as known, Discord-sized."""

from __future__ import annotations

import pytest

from engine.fish import GAME
from storage import migrations
from storage.database import Database, Seat
from tests.storage.migrating import before_migration

SNOWFLAKE = 1578211887605088301  # a real message id: more than 53 bits, so no float or 32-bit column holds it


async def started(db: Database) -> int:
    """Create a started game of fish in channel 10; return its id."""
    row = await db.create_game(guild_id=1, channel_id=10, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5)
    await db.seat_player(row.id, 101, "Bo", max_seats=4)
    await db.start_game(row.id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    return row.id


async def test_a_game_saved_before_the_migration_gets_no_ping_and_then_keeps_one_across_a_restart(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with before_migration(monkeypatch, "ping_message_id"):
        db = Database(database_url)
        await db.open()
        game_id = await started(db)
        await db.close()
    db = Database(database_url)
    await db.open()
    try:
        assert await db.schema_version() == len(migrations.MIGRATIONS)
        assert await db.standing_ping(game_id) is None  # the old game stood no ping
        assert await db.set_ping(game_id, SNOWFLAKE, None)
    finally:
        await db.close()
    db = Database(database_url)  # a restarted process
    await db.open()
    try:
        assert await db.standing_ping(game_id) == SNOWFLAKE
        assert not await db.set_ping(game_id, SNOWFLAKE + 2, SNOWFLAKE + 1), "recorded over a ping it did not know"
        assert await db.set_ping(game_id, SNOWFLAKE + 1, SNOWFLAKE)
        assert await db.standing_ping(game_id) == SNOWFLAKE + 1
        assert await db.set_ping(game_id, None, SNOWFLAKE + 1)
        assert await db.standing_ping(game_id) is None
        row = await db.game(game_id)
        assert row is not None and row.status == "active"  # the row still loads with the new column
    finally:
        await db.close()
