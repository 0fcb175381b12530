"""Remember which private messages (DMs and ephemeral replies) carry a live menu of a game, until it is greyed out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.database import Database


async def remember_menu(db: Database, game_id: int, version: int, channel_id: int, message_id: int) -> None:
    """Note that a DM shows a live menu of a game at a version."""
    await db.backend.execute(
        "INSERT INTO private_menus (message_id, channel_id, game_id, version) VALUES (?, ?, ?, ?)",
        (message_id, channel_id, game_id, version),
    )


async def live_menus(db: Database, game_id: int, older_than: int | None = None) -> list[tuple[int, int]]:
    """Return (channel id, message id) of a game's live DM menus: all, or those older than a version."""
    if older_than is None:
        where, args = "game_id = ?", (game_id,)
    else:
        where, args = "game_id = ? AND version < ?", (game_id, older_than)
    rows = await db.backend.fetch(f"SELECT channel_id, message_id FROM private_menus WHERE {where}", args)
    return [(int(r[0]), int(r[1])) for r in rows]


async def forget_menu(db: Database, message_id: int) -> None:
    """Stop tracking a DM whose menu is greyed out (or gone)."""
    await db.backend.execute("DELETE FROM private_menus WHERE message_id = ?", (message_id,))


@dataclass(frozen=True)
class ReplyMenu:
    """An ephemeral reply that carries a live menu of a game, and the interaction token that can still edit it."""

    message_id: int
    application_id: int
    token: str
    original: bool
    """True: the interaction's original response (edited as @original); False: a follow-up, edited by its id."""
    game_id: int
    user_id: int
    sent_at: float
    """Unix time (the database's clock) the interaction was answered; its token lives 15 minutes from about then."""


REPLY_COLUMNS = "message_id, application_id, token, original, game_id, user_id, sent_at"


def _reply(row: Sequence[Any]) -> ReplyMenu:
    """Build a ReplyMenu from a database row in REPLY_COLUMNS order."""
    return ReplyMenu(int(row[0]), int(row[1]), str(row[2]), bool(row[3]), int(row[4]), int(row[5]), float(row[6]))


async def remember_reply(db: Database, reply: ReplyMenu) -> None:
    """Note an ephemeral reply with a live menu (the same message answered again keeps the newest token)."""
    await db.backend.execute(
        f"INSERT INTO reply_menus ({REPLY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE"
        " SET application_id = excluded.application_id, token = excluded.token, original = excluded.original,"
        " sent_at = excluded.sent_at",
        (
            reply.message_id,
            reply.application_id,
            reply.token,
            int(reply.original),
            reply.game_id,
            reply.user_id,
            reply.sent_at,
        ),
    )


async def reply_menus(db: Database, game_id: int, user_id: int | None = None) -> list[ReplyMenu]:
    """Return a game's recorded ephemeral menus, oldest first: everyone's, or one player's."""
    where, args = "game_id = ?", (game_id,)
    if user_id is not None:
        where, args = "game_id = ? AND user_id = ?", (game_id, user_id)
    rows = await db.backend.fetch(
        f"SELECT {REPLY_COLUMNS} FROM reply_menus WHERE {where} ORDER BY sent_at, message_id", args
    )
    return [_reply(r) for r in rows]


async def forget_replies(db: Database, *message_ids: int) -> None:
    """Stop tracking ephemeral replies that were greyed out (or can no longer be)."""
    if message_ids:
        marks = ", ".join("?" for _unused in message_ids)
        await db.backend.execute(f"DELETE FROM reply_menus WHERE message_id IN ({marks})", tuple(message_ids))


async def forget_replies_before(db: Database, sent_before: float) -> int:
    """Drop every ephemeral reply answered before a Unix time (its token is about to expire); return how many."""
    return await db.backend.execute("DELETE FROM reply_menus WHERE sent_at < ?", (sent_before,))
