"""Read what the command limits need: the lobbies a user hosts, and where a game's replay was posted."""

from __future__ import annotations

from storage.backends import Backend


class Posts:
    """Count open lobbies per host and remember posted replays, on the bot's database (SQLite or PostgreSQL)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def lobbies_hosted(self, guild_id: int, user_id: int) -> int:
        """Return how many open lobbies a user hosts in a server."""
        rows = await self.backend.fetch(
            "SELECT COUNT(*) FROM games WHERE guild_id = ? AND host_id = ? AND status = 'lobby'", (guild_id, user_id)
        )
        return int(rows[0][0])

    async def replay_post(self, game_id: int) -> tuple[int, int] | None:
        """Return the (channel id, message id) where a game's replay was posted, or None."""
        rows = await self.backend.fetch("SELECT channel_id, message_id FROM replay_posts WHERE game_id = ?", (game_id,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def set_replay_post(self, game_id: int, guild_id: int | None, channel_id: int, message_id: int) -> None:
        """Remember where a game's replay now is (replacing an earlier post, e.g. one that was deleted)."""
        await self.backend.execute(
            "INSERT INTO replay_posts (game_id, guild_id, channel_id, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET guild_id = excluded.guild_id, channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (game_id, guild_id, channel_id, message_id),
        )
