"""List open games and compute players' records and leaderboards from the saved results."""

from __future__ import annotations

from storage.core import Store
from storage.rows import GameRow, PlayerStats


class RecordQueries(Store):
    """Answer /game list, /game mine, /game stats and leaderboards."""

    async def open_games_in_guild(self, guild_id: int) -> list[GameRow]:
        """Return the lobbies and active games of a server, oldest first."""
        return await self._games("g.guild_id = ? AND g.status IN ('lobby', 'active')", (guild_id,))

    async def active_games_of(self, user_id: int) -> list[GameRow]:
        """Return every active game, in any server, where a user holds a seat."""
        return await self._games(
            "g.status = 'active' AND g.id IN (SELECT game_id FROM seats WHERE user_id = ?)", (user_id,)
        )

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """Return the newest game of a channel, whatever its status."""
        found = await self._games("g.id = (SELECT MAX(id) FROM games WHERE channel_id = ?)", (channel_id,))
        return found[0] if found else None

    async def player_stats(self, user_id: int, guild_id: int | None) -> list[PlayerStats]:
        """Return a user's games, wins and average score per game type (in one server, or everywhere)."""
        where, args = ("AND guild_id = ?", (user_id, guild_id)) if guild_id else ("", (user_id,))
        rows = await self.backend.fetch(
            "SELECT kind, COUNT(*), SUM(winner), AVG(score) FROM results"
            f" WHERE user_id = ? AND is_bot = 0 {where} GROUP BY kind ORDER BY kind",
            args,
        )
        return [PlayerStats(r[0], int(r[1]), int(r[2] or 0), float(r[3] or 0)) for r in rows]

    async def leaderboard(self, guild_id: int, kind: str, limit: int = 10) -> list[tuple[int, PlayerStats]]:
        """Return the best players of a game in a server: most wins, then best average score."""
        rows = await self.backend.fetch(
            "SELECT user_id, COUNT(*), SUM(winner), AVG(score) FROM results"
            " WHERE guild_id = ? AND kind = ? AND is_bot = 0"
            " GROUP BY user_id ORDER BY SUM(winner) DESC, AVG(score) DESC, COUNT(*) DESC LIMIT ?",
            (guild_id, kind, limit),
        )
        return [(r[0], PlayerStats(kind, int(r[1]), int(r[2] or 0), float(r[3] or 0))) for r in rows]
