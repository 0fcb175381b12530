"""Store who reads which language: each server's choice for new games and each user's client language."""

from __future__ import annotations

from storage.database import Database


async def server_language(db: Database, guild_id: int | None) -> str | None:
    """Return the language a server chose for its new games with /game settings, or None when it chose none."""
    rows = await db.backend.fetch("SELECT language FROM guild_language WHERE guild_id = ?", (guild_id or 0,))
    return str(rows[0][0]) if rows else None


async def set_server_language(db: Database, guild_id: int, language: str) -> None:
    """Store the language a server's new games are played in."""
    await db.backend.execute(
        "INSERT INTO guild_language (guild_id, language) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
        (guild_id, language),
    )


async def user_language(db: Database, user_id: int) -> str | None:
    """Return the client language a user last used with the bot, or None when they never used it."""
    rows = await db.backend.fetch("SELECT language FROM user_language WHERE user_id = ?", (user_id,))
    return str(rows[0][0]) if rows else None


async def user_languages(db: Database, user_ids: list[int]) -> dict[int, str]:
    """Return the stored client language of each of these users who has one."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _unused in user_ids)
    rows = await db.backend.fetch(f"SELECT user_id, language FROM user_language WHERE user_id IN ({marks})", user_ids)
    return {int(r[0]): str(r[1]) for r in rows}


async def set_user_language(db: Database, user_id: int, language: str) -> None:
    """Remember a user's client language, so DMs the bot sends them later read in it."""
    await db.backend.execute(
        "INSERT INTO user_language (user_id, language, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at",
        (user_id, language, db.clock().isoformat()),
    )
