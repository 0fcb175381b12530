"""Store takeback requests: what they would undo, who must agree, who did, and how each ended."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from storage.backends import Row
from storage.database import SQL_INT, Database

PENDING, ACCEPTED, DECLINED, EXPIRED, ENDED = "pending", "accepted", "declined", "expired", "ended"
"""A request waits for answers, then is taken back, declined, left unanswered too long, or ended by a move."""


@dataclass(frozen=True)
class Takeback:
    """Hold one takeback request as stored."""

    id: int
    game_id: int
    version: int
    """The game's version when it was asked: any later change ends the request."""
    seat: int
    user_id: int
    undo: list[int]
    """The log versions it takes back: the asker's move and the computer players' moves after it."""
    waiting: list[int]
    """The people who must accept."""
    accepted: list[int]
    status: str
    decided_by: int | None
    channel_id: int
    message_id: int | None
    created_at: str
    expires_at: str

    def expired(self, now: datetime) -> bool:
        """Return True once the time to answer is over."""
        return now >= datetime.fromisoformat(self.expires_at)

    @property
    def missing(self) -> list[int]:
        """Return the people who have not accepted yet."""
        return [u for u in self.waiting if u not in self.accepted]


def _takeback(r: Row) -> Takeback:
    """Build a Takeback from its row."""
    return Takeback(
        int(r["id"]),
        int(r["game_id"]),
        int(r["version"]),
        int(r["seat"]),
        int(r["user_id"]),
        json.loads(r["undo"]),
        json.loads(r["waiting"]),
        json.loads(r["accepted"]),
        r["status"],
        r["decided_by"],
        int(r["channel_id"]),
        r["message_id"],
        r["created_at"],
        r["expires_at"],
    )


async def create(
    db: Database,
    *,
    game_id: int,
    version: int,
    seat: int,
    user_id: int,
    undo: Sequence[int],
    waiting: Sequence[int],
    channel_id: int,
    expires_at: datetime,
) -> Takeback:
    """Save a new pending request and return it."""
    async with db.backend.transaction() as tx:
        rows = await tx.fetch(
            "INSERT INTO takebacks (game_id, version, seat, user_id, undo, waiting, accepted, status, channel_id,"
            " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, '[]', ?, ?, ?, ?) RETURNING *",
            (
                game_id,
                version,
                seat,
                user_id,
                json.dumps(list(undo)),
                json.dumps(list(waiting)),
                PENDING,
                channel_id,
                db.clock().isoformat(),
                expires_at.isoformat(),
            ),
        )
    return _takeback(rows[0])


async def get(db: Database, request_id: int) -> Takeback | None:
    """Return a request by id, or None."""
    if request_id not in SQL_INT:
        return None
    rows = await db.backend.fetch("SELECT * FROM takebacks WHERE id = ?", (request_id,))
    return _takeback(rows[0]) if rows else None


async def pending_for(db: Database, game_id: int) -> list[Takeback]:
    """Return a game's pending requests, oldest first."""
    rows = await db.backend.fetch(
        "SELECT * FROM takebacks WHERE game_id = ? AND status = ? ORDER BY id", (game_id, PENDING)
    )
    return [_takeback(r) for r in rows]


async def set_message(db: Database, request_id: int, message_id: int) -> None:
    """Remember the channel message that carries a request's buttons."""
    await db.backend.execute("UPDATE takebacks SET message_id = ? WHERE id = ?", (message_id, request_id))


async def accept(db: Database, request_id: int, user_id: int) -> Takeback | None:
    """Add a person's acceptance to a pending request; return the request, or None when it is no longer pending."""
    async with db.backend.transaction() as tx:
        rows = await tx.fetch(
            "UPDATE takebacks SET accepted = accepted WHERE id = ? AND status = ? RETURNING *", (request_id, PENDING)
        )
        if not rows:
            return None
        request = _takeback(rows[0])
        if user_id in request.waiting and user_id not in request.accepted:
            accepted = [*request.accepted, user_id]
            await tx.execute("UPDATE takebacks SET accepted = ? WHERE id = ?", (json.dumps(accepted), request_id))
            request = Takeback(**{**request.__dict__, "accepted": accepted})
        return request


def deciding(db: Database, request_id: int, status: str, decided_by: int | None = None) -> tuple[str, list[object]]:
    """Return the statement that ends a pending request with an outcome; it changes no row once the request ended.

    Run it in the transaction that saves what the outcome changes (as a claim of `Database.record_action`), so
    a request is decided once, together with the game state it decides.
    """
    return (
        "UPDATE takebacks SET status = ?, decided_by = ?, decided_at = ? WHERE id = ? AND status = ?",
        [status, decided_by, db.clock().isoformat(), request_id, PENDING],
    )


async def close(db: Database, request_id: int, status: str, decided_by: int | None = None) -> bool:
    """End a pending request with an outcome that changes no game state; return False if it had already ended."""
    return await db.backend.execute(*deciding(db, request_id, status, decided_by)) == 1


def remembering(game_id: int, seat: int, position: str, action: dict[str, object]) -> tuple[str, list[object]]:
    """Return the statement that remembers a computer player's reply in a position (kept if one is known)."""
    return (
        "INSERT INTO bot_replies (game_id, seat, position, action) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id, seat, position) DO NOTHING",
        [game_id, seat, position, json.dumps(action)],
    )


async def remembered(db: Database, game_id: int, seat: int, position: str) -> dict[str, object] | None:
    """Return what a computer player replied in this position before a takeback went back to it, or None."""
    if game_id not in SQL_INT:
        return None
    rows = await db.backend.fetch(
        "SELECT action FROM bot_replies WHERE game_id = ? AND seat = ? AND position = ?", (game_id, seat, position)
    )
    return json.loads(rows[0][0]) if rows else None


async def of_game(db: Database, game_id: int) -> list[Takeback]:
    """Return every request of a game, oldest first."""
    rows = await db.backend.fetch("SELECT * FROM takebacks WHERE game_id = ? ORDER BY id", (game_id,))
    return [_takeback(r) for r in rows]


async def all_pending(db: Database) -> list[tuple[Takeback, int | None]]:
    """Return every pending request with its game's server, oldest first."""
    rows = await db.backend.fetch(
        "SELECT t.*, g.guild_id AS guild FROM takebacks t JOIN games g ON g.id = t.game_id"
        " WHERE t.status = ? ORDER BY t.id",
        (PENDING,),
    )
    return [(_takeback(r), r["guild"]) for r in rows]
