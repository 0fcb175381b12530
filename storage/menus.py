"""Remember which private messages (DMs) carry a live menu of a game, until it is greyed out."""

from __future__ import annotations

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
