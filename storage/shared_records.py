"""Read one player's record as another may see it: only from servers where the viewer plays too."""

from __future__ import annotations

from storage.database import Database, PlayerStats

SHARED_GUILDS = "SELECT DISTINCT g.guild_id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?"
"""The servers where a user holds or held a seat in a game: the ones the bot knows they are in."""


async def shared_stats(db: Database, user_id: int, viewer_id: int) -> list[PlayerStats]:
    """Return a user's games, wins and average score per game type, counting only servers the viewer plays in."""
    rows = await db.backend.fetch(
        "SELECT kind, COUNT(*), SUM(winner), AVG(score) FROM results"
        f" WHERE user_id = ? AND is_bot = 0 AND guild_id IN ({SHARED_GUILDS}) GROUP BY kind ORDER BY kind",
        (user_id, viewer_id),
    )
    return [PlayerStats(r[0], int(r[1]), int(r[2] or 0), float(r[3] or 0)) for r in rows]


async def shared_servers(db: Database, user_id: int, viewer_id: int) -> int:
    """Return in how many servers both users have played (the servers a shared record is drawn from)."""
    rows = await db.backend.fetch(
        f"SELECT COUNT(*) FROM ({SHARED_GUILDS}) mine WHERE mine.guild_id IN ({SHARED_GUILDS})",
        (viewer_id, user_id),
    )
    return int(rows[0][0])
