"""Find the games a player has finished: for `/game hand` once a game is over."""

from __future__ import annotations

from storage.database import Database, GameRow


async def last_finished_game(db: Database, user_id: int, channel_id: int | None = None) -> GameRow | None:
    """Return the newest finished game a user held a seat in (in one channel, or anywhere), or None."""
    where = "status = 'finished' AND id IN (SELECT game_id FROM seats WHERE user_id = ?)"
    args: list[int] = [user_id]
    if channel_id is not None:
        where += " AND channel_id = ?"
        args.append(channel_id)
    rows = await db.backend.fetch(f"SELECT MAX(id) FROM games WHERE {where}", args)
    found = rows[0][0] if rows else None
    return None if found is None else await db.game(int(found))
