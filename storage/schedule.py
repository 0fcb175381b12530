"""Find the work nothing triggers (due reminders and timeouts, computer turns, unposted boards) on owned shards."""

from __future__ import annotations

import math
from datetime import datetime

from storage.core import Store
from storage.rows import GameRow


class ScheduleQueries(Store):
    """Serve the scheduler, the computer players' resume and the board outbox."""

    async def due_games(self, now: datetime, after_id: int, limit: int) -> list[GameRow]:
        """Return up to `limit` due active games of this process's shards above `after_id`, with their seats."""
        owned, args = self._owned()
        return await self._first_games(
            f"g.due_at <= ? AND g.id > ? AND g.status = 'active' AND {owned}",
            (math.floor(now.timestamp()), after_id, *args),
            limit,
        )

    async def set_due(self, game_id: int, version: int, due_at: int | None) -> None:
        """Store when the scheduler must next look at a game, unless the game moved on meanwhile."""
        await self.backend.execute(
            "UPDATE games SET due_at = ? WHERE id = ? AND version = ?", (due_at, game_id, version)
        )

    async def refresh_due(self, game_id: int) -> None:
        """Recompute when the scheduler must next look at a game (after a seat changed hands, say)."""
        async with self.backend.transaction() as tx:
            await self._refresh_due(tx, "g.id = ?", (game_id,))

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record that the wait at `version` was reminded; return False if it already was or has moved on."""
        async with self.backend.transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET reminded_version = ? WHERE id = ? AND version = ? AND reminded_version != ?",
                (version, game_id, version, version),
            )
            if changed == 1:
                await self._refresh_due(tx, "g.id = ?", (game_id,))
        return changed == 1

    async def set_game_timers(self, game_id: int, reminder_hours: float | None, timeout_hours: float | None) -> None:
        """Store a game's own reminder delay and timeout (None: use the server's)."""
        async with self.backend.transaction() as tx:
            await tx.execute(
                "UPDATE games SET reminder_hours = ?, timeout_hours = ? WHERE id = ?",
                (reminder_hours, timeout_hours, game_id),
            )
            await self._refresh_due(tx, "g.id = ?", (game_id,))

    async def active_games_with_bots(self, after_id: int, limit: int) -> list[GameRow]:
        """Return up to `limit` active games of this process's shards with a computer player, above `after_id`."""
        owned, args = self._owned()
        return await self._first_games(
            f"g.status = 'active' AND g.id > ? AND {owned}"
            " AND g.id IN (SELECT game_id FROM seats WHERE bot_level IS NOT NULL AND game_id > ?)",
            (after_id, *args, after_id),
            limit,
        )

    async def set_board_message(self, game_id: int, message_id: int | None, version: int | None = None) -> None:
        """Remember which channel message shows the current board and, with `version`, which state it shows.

        A board of an older version than the one already posted changes nothing.
        """
        if version is None:
            await self.backend.execute("UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id))
            return
        await self.backend.execute(
            "UPDATE games SET board_message_id = ?, posted_version = ? WHERE id = ? AND posted_version <= ?",
            (message_id, version, game_id, version),
        )

    async def standing_ping(self, game_id: int) -> int | None:
        """Return the message id of a game's newest ping under its board edited in place, if one stands."""
        rows = await self.backend.fetch("SELECT ping_message_id FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def set_ping(self, game_id: int, message_id: int | None, previous: int | None) -> bool:
        """Record a game's newest ping (None: none stands) in place of `previous`; return False if that had changed."""
        changed = await self.backend.execute(
            "UPDATE games SET ping_message_id = ? WHERE id = ? AND COALESCE(ping_message_id, 0) = ?",
            (message_id, game_id, previous or 0),
        )
        return changed == 1

    async def games_behind(self) -> list[GameRow]:
        """Return this process's active and finished games whose newest version has no posted board, oldest first."""
        where, args = self.behind_condition()
        return await self._games(where, args)

    def behind_condition(self) -> tuple[str, list[int]]:
        """Return the sweep's condition on `g`: its ids come from the games_behind partial index (migration 5).

        The inner WHERE repeats the index's condition word for word, as both planners require. Neither can
        estimate how few games are behind (a comparison of two columns): SQLite is told to use the index (else
        it scans by status), and PostgreSQL gets the ids as an array computed first (else it merges the index
        with a scan of every game), so both look up just those games by primary key.
        """
        owned, args = self._owned()
        behind = "WHERE posted_version < version AND status IN ('active', 'finished')"
        if self.backend.dialect == "sqlite":
            return f"g.id IN (SELECT id FROM games INDEXED BY games_behind {behind}) AND {owned}", args
        return f"g.id = ANY(ARRAY(SELECT id FROM games {behind})) AND {owned}", args
