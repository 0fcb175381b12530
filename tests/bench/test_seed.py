"""The saved games bench.seed writes are games the bot can load, replay and show as finished or going on."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from bench.seed import seed
from engine.registry import get
from engine.replay import replay
from storage.database import Database


async def test_seeded_games_replay_from_their_logs_to_their_saved_state(tmp_path: Path) -> None:
    """Every seeded game replays from its seed and action log to the saved state; finished ones have results."""
    path = str(tmp_path / "seeded.db")
    census = await asyncio.to_thread(seed, path, 60, per_kind=2)
    db = Database(path)
    await db.open()
    try:
        rows = [row for n in range(1, 61) if (row := await db.game(n)) is not None]
        assert len(rows) == 60
        assert {row.kind for row in rows} == {"fish", "tank", "flippers"}
        assert {row.status for row in rows} == {"finished", "active"}
        assert len({row.channel_id for row in rows}) == 60 and len({row.guild_id for row in rows}) > 1
        assert sum(v for k, v in census.items() if k != "actions") == 60
        for row in rows:
            game = get(row.kind)
            log = await db.actions(row.id)
            assert row.version == len(log) + 1 and 2 <= len(row.seats) <= 4
            *_, replayed = replay(game, len(row.seats), row.options, row.seed, log)
            assert game.dump(replayed) == game.dump(game.load(row.state or {}))
            assert game.is_over(replayed) == (row.status == "finished")
        finished = [row for row in rows if row.status == "finished"]
        stats: Counter[str] = Counter()
        for row in finished:
            for seat in row.seats:
                for line in await db.player_stats(seat.user_id, row.guild_id):
                    stats[line.kind] += line.games
        assert stats and set(stats) <= {"fish", "tank", "flippers"}
    finally:
        await db.close()


def test_an_empty_seed_makes_an_empty_database_the_bot_can_open(tmp_path: Path) -> None:
    """Zero saved games still leaves a migrated database behind."""
    path = tmp_path / "empty.db"
    assert seed(str(path), 0) == {}
    assert path.exists()


async def test_seeded_games_show_their_boards_as_posted(tmp_path: Path) -> None:
    """No seeded game waits for the board outbox: its newest board counts as posted."""
    path = str(tmp_path / "seeded.db")
    await asyncio.to_thread(seed, path, 30, per_kind=1)
    db = Database(path)
    await db.open()
    try:
        assert await db.games_behind() == []
    finally:
        await db.close()
