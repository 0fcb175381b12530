"""Store what the table keeps: sessions (a token's hash, the user it is bound to, language, expiry); read versions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from storage.database import ACTIVE, Database


@dataclass(frozen=True)
class TableSession:
    """Hold who a table session belongs to and until when it is good."""

    user_id: int
    name: str
    language: str
    expires_at: float


async def save_session(db: Database, token_hash: str, session: TableSession) -> None:
    """Store a new session under its token's hash."""
    await db.backend.execute(
        "INSERT INTO table_sessions (token_hash, user_id, name, language, expires_at) VALUES (?, ?, ?, ?, ?)",
        (token_hash, session.user_id, session.name, session.language, session.expires_at),
    )


async def find_session(db: Database, token_hash: str) -> TableSession | None:
    """Return the session stored under a token's hash, or None."""
    rows = await db.backend.fetch(
        "SELECT user_id, name, language, expires_at FROM table_sessions WHERE token_hash = ?", (token_hash,)
    )
    if not rows:
        return None
    user_id, name, language, expires_at = rows[0]
    return TableSession(int(user_id), str(name), str(language), float(expires_at))


async def forget_expired(db: Database, now: float) -> None:
    """Delete every session whose expiry has passed."""
    await db.backend.execute("DELETE FROM table_sessions WHERE expires_at <= ?", (now,))


async def versions(db: Database, game_ids: list[int]) -> dict[int, tuple[int, str]]:
    """Return the saved version and status of each of these games (one query, for the table's watch)."""
    if not game_ids:
        return {}
    marks = ", ".join("?" for _unused in game_ids)
    rows = await db.backend.fetch(f"SELECT id, version, status FROM games WHERE id IN ({marks})", game_ids)
    return {int(r[0]): (int(r[1]), str(r[2])) for r in rows}


async def last_entry(db: Database, game_id: int, upto: int | None = None) -> dict[str, Any] | None:
    """Return the newest entry of a game's action log (its action and events) at or before version `upto`."""
    bound, args = ("", (game_id,)) if upto is None else (" AND version <= ?", (game_id, upto))
    rows = await db.backend.fetch(
        f"SELECT version, seat, action, events FROM actions WHERE game_id = ?{bound} ORDER BY version DESC LIMIT 1",
        args,
    )
    if not rows:
        return None
    version, seat, action, events = rows[0]
    return {
        "version": int(version),
        "seat": seat,
        "action": json.loads(action) if isinstance(action, str) else action,
        "events": json.loads(events) if isinstance(events, str) else events,
    }


async def newest_game_in(db: Database, channel_id: int, status: str | None = None) -> int | None:
    """Return the id of the newest game ever opened in a channel (of one status, if given), or None."""
    if status is None:
        rows = await db.backend.fetch("SELECT MAX(id) FROM games WHERE channel_id = ?", (channel_id,))
    else:
        rows = await db.backend.fetch(
            "SELECT MAX(id) FROM games WHERE channel_id = ? AND status = ?", (channel_id, status)
        )
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


async def games_in_play(db: Database, channel_ids: list[int]) -> dict[int, int]:
    """Return the game being played in each of these channels that has one, by channel (one query)."""
    if not channel_ids:
        return {}
    marks = ", ".join("?" for _unused in channel_ids)
    rows = await db.backend.fetch(
        f"SELECT channel_id, MAX(id) FROM games WHERE channel_id IN ({marks}) AND status = ? GROUP BY channel_id",
        [*channel_ids, ACTIVE],
    )
    return {int(r[0]): int(r[1]) for r in rows}
