"""A saved move costs one round trip and one commit on both databases, and sets the moment it is next due."""

from __future__ import annotations

import pytest

from engine.fish import GAME
from storage.answers import PendingAnswer, PendingAnswers
from storage.database import Database, GuildSettings, Result, Seat, StaleVersion
from storage.server_rules import set_rated


@pytest.fixture
async def db(database_url: str):
    database = Database(database_url)
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


def owed(game_id: int, version: int) -> tuple[str, tuple[object, ...]]:
    answer = PendingAnswer(
        interaction_id=900 + version, application_id=1, token="t", game_id=game_id, version=version, user_id=100,
        created_at=0.0,
    )
    return PendingAnswers.saving(answer)


async def move(db: Database, game_id: int, version: int, **extra: object) -> int:
    return await db.record_action(
        game_id, version, {"v": version}, seat=0, user_id=100, action={"n": version}, events=[{"e": 1}],
        finished=False, **extra,  # type: ignore[arg-type]
    )


async def test_a_move_with_its_owed_answer_is_one_round_trip_and_one_commit(db: Database) -> None:
    game_id = await started(db)
    before = db.backend.trips.snapshot()
    assert await move(db, game_id, 1, also=[owed(game_id, 2)]) == 2
    after = db.backend.trips.snapshot()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 1)
    assert [a["action"] for a in await db.actions(game_id)] == [{"n": 1}]
    rows = await db.backend.fetch("SELECT game_id, version FROM pending_answers")
    assert [tuple(r) for r in rows] == [(game_id, 2)]


async def test_the_last_move_with_its_results_is_one_round_trip_and_one_commit(db: Database) -> None:
    game_id = await started(db)
    results = [Result(0, 100, False, 30, 1, True), Result(1, 101, False, 20, 2, False)]
    before = db.backend.trips.snapshot()
    await db.record_action(
        game_id, 1, {"v": 1}, seat=0, user_id=100, action={"n": 1}, events=[], finished=True, results=results
    )
    after = db.backend.trips.snapshot()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 1)
    rows = await db.backend.fetch("SELECT seat, guild_id, kind, score, winner FROM results ORDER BY seat")
    assert [tuple(r) for r in rows] == [(0, 1, "fish", 30, 1), (1, 1, "fish", 20, 0)]
    row = await db.game(game_id)
    assert row is not None and row.status == "finished"


async def test_a_stale_move_writes_nothing_at_all(db: Database) -> None:
    game_id = await started(db)
    await move(db, game_id, 1)
    with pytest.raises(StaleVersion):
        await move(db, game_id, 1, also=[owed(game_id, 2)])
    assert len(await db.actions(game_id)) == 1
    assert await db.backend.fetch("SELECT 1 FROM pending_answers") == []


@pytest.mark.parametrize(
    ("server", "game_hours", "rated", "paused"),
    [
        (None, (None, None), True, False),  # the defaults: reminded after 12 h (the stall limit is 72 h)
        (None, (None, None), False, False),
        (GuildSettings(0.5, 2.0), (None, None), True, False),  # the server's hours
        (GuildSettings(5.0, None), (None, None), False, False),
        (GuildSettings(0.0, None), (None, None), True, False),  # no reminders: the stall limit
        (GuildSettings(0.0, None), (None, None), False, False),  # nothing due at all
        (GuildSettings(1.0, 0.25), (3.0, None), True, False),  # the game's own reminder beats the server's
        (None, (None, 0.1), True, False),  # the game's own timeout
        (None, (None, None), True, True),  # a paused game is due for nothing
    ],
)
async def test_the_due_moment_set_with_a_move_is_the_one_the_scheduler_computes(
    db: Database,
    server: GuildSettings | None,
    game_hours: tuple[float | None, float | None],
    rated: bool,
    paused: bool,
) -> None:
    game_id = await started(db)
    if server is not None:
        await db.save_guild_settings(1, server)
    await set_rated(db, game_id, rated)
    await db.backend.execute(
        "UPDATE games SET reminder_hours = ?, timeout_hours = ?, paused_reason = ? WHERE id = ?",
        (*game_hours, "channel" if paused else None, game_id),
    )
    await move(db, game_id, 1)
    saved = (await db.backend.fetch("SELECT due_at FROM games WHERE id = ?", (game_id,)))[0][0]
    async with db.backend.transaction() as tx:
        await db._refresh_due(tx, "g.id = ?", (game_id,))
    computed = (await db.backend.fetch("SELECT due_at FROM games WHERE id = ?", (game_id,)))[0][0]
    assert saved == computed
    assert (saved is None) == (paused or (server is not None and server.reminder_hours == 0 and not rated))
