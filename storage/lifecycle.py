"""End games whose channel or server is gone, and pause and resume games whose channel refuses posts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from storage.core import Store
from storage.rows import ABANDONED, GameRow


class LifecycleQueries(Store):
    """Abandon, pause and unpause games that outlive their channel."""

    async def _abandon(self, where: str, args: Sequence[Any]) -> list[GameRow]:
        """End the open games matching a condition on `g` as abandoned (no winner, timers stopped); return them."""
        async with self.backend.transaction() as tx:
            found = await self._first_games(f"({where}) AND g.status IN ('lobby', 'active')", args, 10_000, tx)
            if found:
                await tx.executemany(
                    "UPDATE games SET status = ?, version = version + 1, updated_at = ?, due_at = NULL"
                    " WHERE id = ? AND status IN ('lobby', 'active')",
                    [(ABANDONED, self._now(), row.id) for row in found],
                )
        return found

    async def abandon_channel(self, channel_id: int) -> list[GameRow]:
        """End the open game of a deleted channel or thread as abandoned; return it (or nothing)."""
        return await self._abandon("g.channel_id = ?", (channel_id,))

    async def abandon_guild(self, guild_id: int) -> list[GameRow]:
        """End every open game of a server the bot left as abandoned; return them."""
        return await self._abandon("g.guild_id = ?", (guild_id,))

    async def pause(self, game_id: int, reason: str) -> bool:
        """Stop an open game's timers because the bot cannot post; return True if it was not paused yet."""
        changed = await self.backend.execute(
            "UPDATE games SET paused_reason = ?, paused_at = ?, due_at = NULL"
            " WHERE id = ? AND status IN ('lobby', 'active') AND paused_reason IS NULL",
            (reason, self._now(), game_id),
        )
        return changed == 1

    async def unpause(self, game_id: int) -> bool:
        """Let a paused game's timers run again, counting the wait before the pause; return True if it was paused."""
        async with self.backend.transaction() as tx:
            rows = await tx.fetch(
                "UPDATE games SET paused_at = paused_at WHERE id = ? AND paused_reason IS NOT NULL"
                " RETURNING updated_at, paused_at",
                (game_id,),
            )
            if not rows:
                return False
            now = self.clock()
            began, paused = datetime.fromisoformat(rows[0]["updated_at"]), datetime.fromisoformat(rows[0]["paused_at"])
            waited = max(paused - began, timedelta(0))  # activity during the pause restarts the wait
            await tx.execute(
                "UPDATE games SET paused_reason = NULL, paused_at = NULL, updated_at = ? WHERE id = ?",
                ((now - waited).isoformat(), game_id),
            )
            await self._refresh_due(tx, "g.id = ?", (game_id,))
        return True

    async def paused_channels(self) -> set[int]:
        """Return the channels whose open game is paused."""
        rows = await self.backend.fetch(
            "SELECT channel_id FROM games WHERE paused_reason IS NOT NULL AND status IN ('lobby', 'active')"
        )
        return {r[0] for r in rows}

    async def paused_games(self, guild_id: int) -> list[GameRow]:
        """Return a server's paused open games."""
        return await self._games(
            "g.guild_id = ? AND g.paused_reason IS NOT NULL AND g.status IN ('lobby', 'active')", (guild_id,)
        )
