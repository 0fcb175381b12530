"""Check results, statistics, leaderboards, reminders and settings in the database."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from storage.database import Database, GuildSettings, Result, Seat


@pytest.fixture
async def db(database_url: str):
    database = Database(database_url, clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    await database.open()
    yield database
    await database.close()


async def finished_game(db: Database, channel: int, scores: dict[int, int], guild: int = 1, kind: str = "fish") -> int:
    users = list(scores)
    row = await db.create_game(
        guild_id=guild, channel_id=channel, kind=kind, host=Seat(0, users[0], "u0"), options={}, seed=1
    )
    for n, user in enumerate(users[1:], start=1):
        await db.seat_player(row.id, user, f"u{n}", 4, bot_level="easy" if user < 0 else None)
    version = await db.start_game(row.id, {"s": 0}, 0)
    best = max(scores.values())
    results = [
        Result(seat, user, user < 0, score, 1 if score == best else 2, score == best)
        for seat, (user, score) in enumerate(scores.items())
    ]
    await db.record_action(
        row.id, version, {"s": 1}, seat=0, user_id=users[0], action={}, events=[], finished=True, results=results
    )
    return row.id


async def test_results_feed_player_statistics(db: Database) -> None:
    await finished_game(db, 1, {10: 30, 20: 25})
    await finished_game(db, 2, {10: 20, 20: 28})
    await finished_game(db, 3, {10: 40, 20: 10}, kind="tank")
    stats = {s.kind: s for s in await db.player_stats(10, guild_id=1)}
    assert (stats["fish"].games, stats["fish"].wins, stats["fish"].average_score) == (2, 1, 25.0)
    assert (stats["tank"].games, stats["tank"].wins) == (1, 1)


async def test_statistics_are_per_server_unless_asked_everywhere(db: Database) -> None:
    await finished_game(db, 1, {10: 30, 20: 25}, guild=1)
    await finished_game(db, 2, {10: 30, 20: 25}, guild=2)
    assert [s.games for s in await db.player_stats(10, guild_id=1)] == [1]
    assert [s.games for s in await db.player_stats(10, guild_id=None)] == [2]


async def test_the_leaderboard_ranks_by_wins_and_leaves_out_computer_players(db: Database) -> None:
    await finished_game(db, 1, {10: 30, 20: 25, -1: 50})
    await finished_game(db, 2, {10: 20, 20: 28})
    await finished_game(db, 3, {10: 35, 20: 28})
    board = await db.leaderboard(1, "fish")
    assert [user for user, _ in board] == [10, 20]
    assert board[0][1].wins == 1 and board[1][1].wins == 1
    assert board[0][1].average_score > board[1][1].average_score


async def test_a_wait_is_reminded_only_once(db: Database) -> None:
    row = await db.create_game(guild_id=1, channel_id=5, kind="fish", host=Seat(0, 1, "a"), options={}, seed=1)
    version = await db.start_game(row.id, {"s": 0}, 0)
    assert await db.mark_reminded(row.id, version) is True
    assert await db.mark_reminded(row.id, version) is False
    assert (await db.game(row.id)).reminded_version == version


async def test_server_settings_default_and_persist(db: Database) -> None:
    assert await db.guild_settings(9) == GuildSettings(12.0, None, False)
    await db.save_guild_settings(9, GuildSettings(6.0, 48.0, True))
    assert await db.guild_settings(9) == GuildSettings(6.0, 48.0, True)


async def test_dm_reminder_choice_is_remembered(db: Database) -> None:
    assert await db.wants_dm_reminders(3) is False
    await db.set_dm_reminders(3, True)
    assert await db.wants_dm_reminders(3) is True
    await db.set_dm_reminders(3, False)
    assert await db.wants_dm_reminders(3) is False


async def test_a_seat_handed_to_a_computer_player_is_marked(db: Database) -> None:
    row = await db.create_game(guild_id=1, channel_id=5, kind="fish", host=Seat(0, 1, "Ana"), options={}, seed=1)
    await db.hand_seat_to_bot(row.id, 0, "hard", "Ana (bot)")
    seat = (await db.game(row.id)).seats[0]
    assert seat.is_bot and seat.bot_level == "hard" and seat.mention == "Ana (bot)"


async def test_games_waiting_lists(db: Database) -> None:
    first = await db.create_game(guild_id=1, channel_id=5, kind="fish", host=Seat(0, 1, "a"), options={}, seed=1)
    await db.start_game(first.id, {"s": 0}, 0)
    await db.create_game(guild_id=1, channel_id=6, kind="tank", host=Seat(0, 2, "b"), options={}, seed=1)
    assert [r.id for r in await db.active_games_of(1)] == [first.id]
    assert len(await db.open_games_in_guild(1)) == 2
    assert (await db.latest_game_in(5)).id == first.id
