"""Check storage on a real SQLite file and a real PostgreSQL server: restarts, concurrent writers, damaged rows."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from engine.fish import GAME
from i18n import using
from storage.database import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    ChannelBusy,
    Database,
    Seat,
    Shards,
    StaleVersion,
    StorageError,
    sqlite_path,
)
from storage.migrations import MIGRATIONS


@pytest.fixture
async def db(database_url: str):
    database = Database(database_url)
    await database.open()
    yield database
    await database.close()


async def lobby(db: Database, channel: int = 10, players: int = 2) -> int:
    row = await db.create_game(
        guild_id=1, channel_id=channel, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5
    )
    for n in range(1, players):
        await db.seat_player(row.id, 100 + n, f"P{n}", max_seats=4)
    return row.id


async def started(db: Database, channel: int = 10) -> int:
    game_id = await lobby(db, channel)
    await db.start_game(game_id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    return game_id


def test_database_url_names_a_sqlite_file() -> None:
    assert sqlite_path("sqlite:///data/ice_floe.db") == "data/ice_floe.db"
    assert sqlite_path("sqlite:////var/lib/floe.db") == "/var/lib/floe.db"
    with pytest.raises(ValueError, match="sqlite:///"):
        sqlite_path("postgres://localhost/db")


async def test_a_new_database_gets_every_migration_and_sqlite_runs_in_wal_mode(db: Database) -> None:
    assert await db.schema_version() == len(MIGRATIONS)
    if db.backend.dialect == "sqlite":
        assert (await db.backend.fetch("PRAGMA journal_mode"))[0][0] == "wal"


async def test_reopening_applies_no_migration_twice(database_url: str) -> None:
    for _ in range(2):
        database = Database(database_url)
        await database.open()
        assert await database.schema_version() == len(MIGRATIONS)
        await database.close()


async def test_one_open_game_per_channel_but_threads_are_separate_channels(db: Database) -> None:
    await lobby(db, channel=10)
    with pytest.raises(ChannelBusy):
        await lobby(db, channel=10)
    await lobby(db, channel=11)


async def test_a_finished_game_frees_its_channel(db: Database) -> None:
    game_id = await lobby(db, channel=10)
    assert await db.set_status(game_id, CANCELLED)
    assert await db.open_game_in(10) is None
    await lobby(db, channel=10)


async def test_seats_fill_in_order_and_close_gaps_when_someone_leaves(db: Database) -> None:
    game_id = await lobby(db, players=3)
    await db.unseat_player(game_id, 101)
    row = await db.game(game_id)
    assert [(s.seat, s.user_id) for s in row.seats] == [(0, 100), (1, 102)]


async def test_a_full_lobby_and_a_second_seat_are_refused(db: Database) -> None:
    game_id = await lobby(db, players=4)
    with pytest.raises(StorageError, match="full"):
        await db.seat_player(game_id, 999, "Late", max_seats=4)
    with pytest.raises(StorageError, match="already seated"):
        await db.seat_player(game_id, 100, "Ana", max_seats=5)


async def test_a_refused_seat_is_explained_in_the_players_language(db: Database) -> None:
    game_id = await lobby(db, players=4)
    with using("de"), pytest.raises(StorageError, match=r"^Das Spiel ist voll \(4 Spieler\)\.$"):
        await db.seat_player(game_id, 999, "Late", max_seats=4)
    with using("ja"), pytest.raises(StorageError, match=r"^あなたはすでにこのゲームに参加しています。$"):
        await db.seat_player(game_id, 100, "Ana", max_seats=5)
    with pytest.raises(StorageError, match=r"^The game is full \(4 players\)\.$"):
        await db.seat_player(game_id, 999, "Late", max_seats=4)


async def test_an_action_and_its_state_are_saved_together_and_survive_a_restart(database_url: str) -> None:
    first = Database(database_url)
    await first.open()
    game_id = await started(first)
    state = GAME.load((await first.game(game_id)).state)
    action = GAME.legal_actions(state, 0)[0]
    events = GAME.apply(state, 0, action)
    version = await first.record_action(
        game_id,
        1,
        GAME.dump(state),
        seat=0,
        user_id=100,
        action=action,
        events=[e.to_json() for e in events],
        finished=False,
    )
    await first.close()

    second = Database(database_url)
    await second.open()
    row = await second.game(game_id)
    assert row.version == version == 2
    assert row.status == ACTIVE
    assert GAME.dump(GAME.load(row.state)) == GAME.dump(state)
    log = await second.actions(game_id)
    assert [entry["action"] for entry in log] == [action]
    await second.close()


async def test_two_writers_at_the_same_version_cannot_both_apply(database_url: str) -> None:
    a, b = Database(database_url), Database(database_url)
    await a.open()
    await b.open()
    game_id = await started(a)
    state = (await a.game(game_id)).state

    async def write(db: Database, seat: int) -> str:
        try:
            await db.record_action(
                game_id, 1, state, seat=seat, user_id=seat, action={"type": "x"}, events=[], finished=False
            )
            return "applied"
        except StaleVersion:
            return "stale"

    results = await asyncio.gather(write(a, 0), write(b, 1))
    assert sorted(results) == ["applied", "stale"]
    assert len(await a.actions(game_id)) == 1
    await a.close()
    await b.close()


async def test_a_write_at_an_old_version_is_refused_and_changes_nothing(db: Database) -> None:
    game_id = await started(db)
    before = await db.game(game_id)
    with pytest.raises(StaleVersion):
        await db.record_action(game_id, 0, {"x": 1}, seat=0, user_id=1, action={}, events=[], finished=False)
    after = await db.game(game_id)
    assert (after.version, after.state) == (before.version, before.state)
    assert await db.actions(game_id) == []


async def test_finishing_a_game_marks_it_finished(db: Database) -> None:
    game_id = await started(db)
    await db.record_action(game_id, 1, {"done": True}, seat=0, user_id=1, action={}, events=[], finished=True)
    assert (await db.game(game_id)).status == FINISHED
    assert await db.open_game_in(10) is None


async def test_the_action_log_is_append_only(db: Database) -> None:
    game_id = await started(db)
    await db.record_action(game_id, 1, {"s": 1}, seat=0, user_id=1, action={"a": 1}, events=[], finished=False)
    with pytest.raises(Exception, match="append-only"):
        await db.backend.execute("UPDATE actions SET action = '{}'")
    with pytest.raises(Exception, match="append-only"):
        await db.backend.execute("DELETE FROM actions")
    assert [entry["action"] for entry in await db.actions(game_id)] == [{"a": 1}]


async def test_a_damaged_row_is_reported_and_the_other_games_still_load(db: Database) -> None:
    good = await started(db, channel=10)
    bad = await started(db, channel=11)
    await db.backend.execute("UPDATE games SET state = '{not json' WHERE id = ?", (bad,))
    rows = {row.id: row for row in await db.games_with_status(ACTIVE)}
    assert rows[good].state_error is None and rows[good].state is not None
    assert rows[bad].state is None and "not valid JSON" in rows[bad].state_error


async def test_meta_values_are_stored_and_replaced(db: Database) -> None:
    assert await db.get_meta("k") is None
    await db.set_meta("k", "1")
    await db.set_meta("k", "2")
    assert await db.get_meta("k") == "2"


async def test_concurrent_changes_on_one_connection_never_interleave(db: Database) -> None:
    async def open_and_fill(channel: int) -> None:
        game_id = await lobby(db, channel=channel, players=1)
        for n in range(1, 4):
            await db.seat_player(game_id, 1000 * channel + n, f"p{n}", 4)

    await asyncio.gather(*(open_and_fill(channel) for channel in range(20, 40)))
    rows = await db.games_with_status("lobby")
    assert len(rows) == 20
    assert all(len(row.seats) == 4 for row in rows)


async def test_many_writers_on_separate_connections_apply_each_version_exactly_once(database_url: str) -> None:
    writers = [Database(database_url) for _ in range(4)]
    for writer in writers:
        await writer.open()
    game_id = await started(writers[0])

    async def play(db: Database, seat: int) -> int:
        applied = 0
        for _ in range(15):
            row = await db.game(game_id)
            try:
                await db.record_action(
                    game_id, row.version, {"v": row.version}, seat=seat, user_id=seat, action={"by": seat},
                    events=[], finished=False,
                )
                applied += 1
            except StaleVersion:
                pass
        return applied

    applied = await asyncio.gather(*(play(db, n) for n, db in enumerate(writers)))
    row = await writers[0].game(game_id)
    log = await writers[0].actions(game_id)
    assert [entry["version"] for entry in log] == list(range(2, row.version + 1))
    assert sum(applied) == len(log) == row.version - 1
    for writer in writers:
        await writer.close()


async def test_a_process_schedules_only_the_games_of_guilds_on_its_shards(database_url: str) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    everything = Database(database_url, clock=lambda: start)
    await everything.open()
    guilds: dict[int, int | None] = {shard: (1000 + shard) << 22 | 77 for shard in range(4)}
    guilds[4] = None  # a game without a server belongs to shard 0, as direct messages do
    ids = {}
    for key, guild in guilds.items():
        row = await everything.create_game(
            guild_id=guild, channel_id=key, kind="fish", host=Seat(0, 1, "a"), options={}, seed=1
        )
        await everything.seat_player(row.id, -1, "Bot", 4, bot_level="easy")
        await everything.start_game(row.id, {"s": 0}, 0)
        ids[key] = row.id
    later = start + timedelta(hours=13)
    found = {}
    for shard_ids in ((0, 1), (2, 3)):
        part = Database(database_url, shards=Shards(4, shard_ids))
        await part.open()
        found[shard_ids] = (
            {row.id for row in await part.active_games_with_bots(0, 100)},
            {row.id for row in await part.due_games(later, 0, 100)},
        )
        await part.close()
    assert found[(0, 1)] == ({ids[0], ids[1], ids[4]},) * 2
    assert found[(2, 3)] == ({ids[2], ids[3]},) * 2
    assert {row.id for row in await everything.due_games(later, 0, 100)} == set(ids.values())
    assert Shards(4, (2, 3)).owns(guilds[2]) and not Shards(4, (2, 3)).owns(None)
    await everything.close()


async def test_reads_do_not_wait_for_a_write_in_progress(db: Database) -> None:
    game_id = await started(db)
    async with db.backend.transaction() as tx:
        await tx.execute("UPDATE games SET updated_at = 'uncommitted' WHERE id = ?", (game_id,))
        row = await asyncio.wait_for(db.game(game_id), timeout=5)
        assert row is not None and row.updated_at != "uncommitted"
    assert (await db.game(game_id)).updated_at == "uncommitted"
