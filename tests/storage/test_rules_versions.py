"""Check that the rules version of a game's deal and of each logged step is kept, on SQLite and PostgreSQL."""

from __future__ import annotations

from storage.database import Database, Seat


async def test_the_rules_of_the_deal_and_of_each_step_are_kept(database_url: str) -> None:
    db = Database(database_url)
    await db.open()
    try:
        row = await db.create_game(guild_id=1, channel_id=2, kind="fish", host=Seat(0, 10, "a"), options={}, seed=1)
        await db.seat_player(row.id, 20, "b", 4)
        version = await db.start_game(row.id, {"schema": 2}, 0, rules=2)
        version = await db.record_action(
            row.id, version, {"schema": 3}, seat=0, user_id=10, action={"a": 1}, events=[], finished=False, rules=3
        )
        await db.record_action(
            row.id, version, {"schema": 3}, seat=1, user_id=20, action={"a": 2}, events=[], finished=False
        )
        saved = await db.game(row.id)
        assert saved is not None and saved.rules == 2  # a later step never rewrites the deal's version
        assert [entry["rules"] for entry in await db.actions(row.id)] == [3, None]
    finally:
        await db.close()
