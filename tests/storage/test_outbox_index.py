"""Check the outbox sweep reads only the unposted games, through their partial index, at 300,000 games."""

from __future__ import annotations

import time

from storage.database import Database
from storage.rows import GAME_SELECT

GAMES = 300_000
BEHIND = 7


async def fill(db: Database, games: int = GAMES) -> None:
    """Save `games` finished games in one statement, BEHIND of them (and one cancelled) with an unposted board."""
    if db.backend.dialect == "postgresql":
        numbers = f"SELECT i FROM generate_series(1, {games}) AS n(i)"
    else:
        numbers = f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {games}) SELECT i FROM n"
    await db.backend.execute(
        "INSERT INTO games (guild_id, channel_id, kind, status, host_id, options, seed, created_at, updated_at,"
        " version, posted_version)"
        f" SELECT i, i, 'fish', CASE WHEN i = 5 THEN 'cancelled' ELSE 'finished' END, 1, '{{}}', i,"
        " '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00', 9,"
        f" CASE WHEN i % {games // BEHIND} = 0 OR i = 5 THEN 3 ELSE 9 END FROM ({numbers}) AS numbers"
    )
    if db.backend.dialect == "postgresql":
        await db.backend.execute("ANALYZE games")
    else:
        await db.backend.execute("ANALYZE")


async def plan(db: Database) -> str:
    """Return the query plan of the sweep's query as text."""
    where, args = db.behind_condition()
    sql = f"{GAME_SELECT} WHERE {where} ORDER BY g.id, s.seat"
    if db.backend.dialect == "postgresql":
        rows = await db.backend.fetch(f"EXPLAIN {sql}", args)
    else:
        rows = await db.backend.fetch(f"EXPLAIN QUERY PLAN {sql}", args)
    return "\n".join(str(row[-1]) for row in rows)


async def test_the_outbox_sweep_reads_only_unposted_games_through_their_index(database_url: str) -> None:
    db = Database(database_url, statement_timeout_ms=0)
    await db.open()
    try:
        await fill(db)
        shown = await plan(db)
        print(f"{db.backend.dialect} plan at {GAMES:,} games:\n{shown}")
        assert "games_behind" in shown, shown  # the partial index, not a scan of every game
        assert "SCAN g\n" not in shown + "\n" and "Seq Scan on games" not in shown, shown
        began = time.perf_counter()
        behind = await db.games_behind()
        print(f"sweep query: {1000 * (time.perf_counter() - began):.1f} ms for {len(behind)} games behind")
        assert len(behind) == BEHIND
        assert all(row.status == "finished" and row.posted_version == 3 for row in behind)
    finally:
        await db.close()
