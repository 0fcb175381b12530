"""Check moving a SQLite database to PostgreSQL with python -m storage.copy."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage.copy import BATCH, copy
from storage.database import Database, GuildSettings, Result, Seat, Shards
from storage.ownership import ShardLease

ROOT = Path(__file__).resolve().parents[2]


def run_copy(source: str, target: str) -> subprocess.CompletedProcess[str]:
    """Run the copy command as an operator would."""
    return subprocess.run(
        [sys.executable, "-m", "storage.copy", source, target],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


async def fill(db: Database) -> list[int]:
    """Save a lobby, a game in progress with moves, a finished game with results, settings and a rematch."""
    lobby = await db.create_game(guild_id=1, channel_id=10, kind="tank", host=Seat(0, 5, "Ana"), options={}, seed=1)
    await db.set_game_timers(lobby.id, 1.5, None)
    active = await db.create_game(
        guild_id=1, channel_id=11, kind="fish", host=Seat(0, 5, "Ana"), options={"balanced": True}, seed=2
    )
    await db.seat_player(active.id, -1, "Bot 1 (easy)", 4, bot_level="easy")
    version = await db.start_game(active.id, {"turn": 0}, 0)
    for n in range(3):
        version = await db.record_action(
            active.id, version, {"turn": n + 1}, seat=n % 2, user_id=5, action={"n": n}, events=[{"e": n}],
            finished=False,
        )
    await db.set_board_message(active.id, 987654321098765432)
    done = await db.create_game(guild_id=1, channel_id=12, kind="fish", host=Seat(0, 5, "Ana"), options={}, seed=3)
    await db.seat_player(done.id, 6, "Bo", 4)
    version = await db.start_game(done.id, {"turn": 0}, 0)
    await db.record_action(
        done.id, version, {"over": True}, seat=0, user_id=5, action={}, events=[], finished=True,
        results=[Result(0, 5, False, 40, 1, True), Result(1, 6, False, 30, 2, False)],
    )
    await db.mark_reminded(active.id, 4)
    await db.save_guild_settings(1, GuildSettings(6.0, 48.0, True))
    await db.set_dm_reminders(5, True)
    await db.set_meta("command_hash:1:global", "abc")
    return [lobby.id, active.id, done.id]


@pytest.fixture
async def source(tmp_path: Path) -> AsyncIterator[Database]:
    """Open a SQLite database to copy from."""
    db = Database(f"sqlite:///{tmp_path / 'old.db'}", clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    await db.open()
    yield db
    await db.close()


@pytest.fixture
async def target(postgres_url: str) -> AsyncIterator[Database]:
    """Return the (not yet opened) PostgreSQL database to copy into."""
    db = Database(postgres_url)
    yield db
    await db.close()


async def test_a_sqlite_database_moves_to_postgresql_whole(source: Database, target: Database) -> None:
    source_url, postgres_url = source.path, target.path
    ids = await fill(source)

    done = run_copy(source_url, postgres_url)
    assert done.returncode == 0, done.stderr
    assert "Copied 3 games, 5 seats, 4 actions, 2 results, 1 meta, 1 guild_settings, 1 notify." in done.stdout

    await target.open()
    for game_id in ids:
        assert await target.game(game_id) == await source.game(game_id)
        assert await target.actions(game_id) == await source.actions(game_id)
    assert await target.player_stats(5, None) == await source.player_stats(5, None)
    assert await target.guild_settings(1) == GuildSettings(6.0, 48.0, True)
    assert await target.wants_dm_reminders(5) is True
    assert await target.get_meta("command_hash:1:global") == "abc"
    fresh = await target.create_game(guild_id=1, channel_id=13, kind="fish", host=Seat(0, 5, "A"), options={}, seed=4)
    assert fresh.id > max(ids)

    again = run_copy(source_url, postgres_url)
    assert again.returncode == 1 and "already holds games" in again.stderr
    assert len(await target.games_with_status("lobby", "active", "finished")) == 4


async def test_the_copy_refuses_while_a_bot_holds_either_database(
    source: Database, target: Database, tmp_path: Path
) -> None:
    await fill(source)
    await target.open()
    bot_on_source = ShardLease(source.path.removeprefix("sqlite:///"), Shards(1, (0,)), dialect="sqlite",
                               owner="the old bot")
    await bot_on_source.acquire()
    try:
        refused = run_copy(source.path, target.path)
    finally:
        await bot_on_source.release()
    assert refused.returncode == 1 and "a bot is still running" in refused.stderr and "the old bot" in refused.stderr
    bot_on_target = ShardLease(target.path, Shards(2, (1,)), dialect="postgresql", owner="the new bot")
    await bot_on_target.acquire()
    try:
        refused = run_copy(source.path, target.path)
    finally:
        await bot_on_target.release()
    assert refused.returncode == 1 and "the new bot" in refused.stderr
    assert await target.games_with_status("lobby", "active", "finished") == []
    assert run_copy(source.path, target.path).returncode == 0


async def test_a_history_larger_than_a_batch_is_copied_whole(source: Database, target: Database) -> None:
    for channel in range(BATCH + 5):  # more games than one batch holds
        await source.create_game(
            guild_id=1, channel_id=1000 + channel, kind="fish", host=Seat(0, 5, "Ana"), options={}, seed=channel
        )
    counts = await copy(source.path, target.path)
    assert counts["games"] == BATCH + 5 and counts["seats"] == BATCH + 5
    await target.open()
    assert len(await target.games_with_status("lobby")) == BATCH + 5
