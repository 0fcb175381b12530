"""Hold the connection and the query helpers every storage room shares, on SQLite (aiosqlite) or PostgreSQL (asyncpg).

Every query is written once, with `?` placeholders in SQL both dialects accept; storage/backends.py runs it on
aiosqlite or asyncpg (translating placeholders to `$n`). The queries live by concern in the rooms beside this
one (games.py, lifecycle.py, schedule.py, settings.py, records.py), each a class built on `Store`, and
storage/database.py puts them together as `Database`. To add a query:

- a read: `rows = await self.backend.fetch("SELECT ... WHERE x = ?", (x,))` (rows index by name and position);
  reads of games go through `self._games(where, args)` (or `self._first_games(where, args, limit)` for a batch),
  which join the seats in the same query;
- one write: `changed = await self.backend.execute("UPDATE ... WHERE ...", args)` returns the changed rows;
- several writes that must apply together: `async with self.backend.transaction() as tx:` then `tx.fetch`
  / `tx.execute`; raising inside rolls back. Lock a game row first with `UPDATE games ... RETURNING ...`
  (no SELECT ... FOR UPDATE: SQLite lacks it, and BEGIN IMMEDIATE already serialises its writers);
- new ids: `INSERT ... RETURNING id` (both dialects);
- work not triggered by an interaction (reminders, timeouts, computer turns after a restart) must only
  touch games this process owns: add `self._owned()` to the WHERE clause (see `due_games`,
  `active_games_with_bots` in storage/schedule.py).
Where the dialects truly differ, branch on `self.backend.dialect` ("sqlite" or "postgresql"), and put schema
changes in storage/migrations.py (one entry per migration, per-dialect text only where needed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from storage.backends import STATEMENT_TIMEOUT_MS, Backend, Tx, make_backend
from storage.fairness import stall_limit
from storage.rows import ACTIVE, GAME_SELECT, GameRow, GuildSettings, Shards, due_moment, games_from_rows, utc_now


class Store:
    """Own the connection to the database DATABASE_URL names (SQLite by default) and the shared query helpers.

    `target` is a DATABASE_URL (sqlite:///..., postgresql://...) or a SQLite file path. With `shards`,
    the scheduler's queries return only the games of guilds on those shards.
    """

    def __init__(
        self,
        target: str,
        clock: Callable[[], datetime] = utc_now,
        *,
        pool_size: int = 10,
        shards: Shards | None = None,
        statement_timeout_ms: int = STATEMENT_TIMEOUT_MS,
    ) -> None:
        self.path = target
        self.clock = clock
        self.shards = shards
        self.backend: Backend = make_backend(target, pool_size=pool_size, statement_timeout_ms=statement_timeout_ms)

    async def open(self) -> None:
        """Connect and apply pending migrations."""
        await self.backend.open()

    async def close(self) -> None:
        """Disconnect."""
        await self.backend.close()

    async def schema_version(self) -> int:
        """Return how many migrations the database has."""
        return await self.backend.schema_version()

    def owns_shards(self) -> bool:
        """Tell whether this process may do its shards' owner-only work now (always, unless a lease fences it)."""
        fence = getattr(self.backend, "fence", None)
        return fence is None or fence.held

    def _now(self) -> str:
        return self.clock().isoformat()

    def _owned(self, column: str = "g.guild_id") -> tuple[str, list[int]]:
        """Return a WHERE condition (and its arguments) keeping the games of guilds on this process's shards."""
        if self.shards is None:
            return "1 = 1", []
        marks = ", ".join("?" for _ in self.shards.ids)
        return f"((COALESCE({column}, 0) >> 22) % ?) IN ({marks})", [self.shards.count, *self.shards.ids]

    async def _games(self, where: str, args: Sequence[Any] = (), order: str = "g.id") -> list[GameRow]:
        """Return the games matching a condition on `g` (games), each with its seats, in one query."""
        rows = await self.backend.fetch(f"{GAME_SELECT} WHERE {where} ORDER BY {order}, s.seat", args)
        return games_from_rows(rows)

    async def _first_games(self, where: str, args: Sequence[Any], limit: int, tx: Tx | None = None) -> list[GameRow]:
        """Return up to `limit` games matching a condition on `g`, oldest first, with their seats, in one query."""
        rows = await (tx or self.backend).fetch(
            "SELECT g.*, s.seat AS seat_no, s.user_id AS seat_user, s.name AS seat_name, s.bot_level AS seat_bot"
            f" FROM (SELECT * FROM games g WHERE {where} ORDER BY g.id LIMIT ?) g"
            " LEFT JOIN seats s ON s.game_id = g.id ORDER BY g.id, s.seat",
            (*args, limit),
        )
        return games_from_rows(rows)

    async def _refresh_due(self, tx: Tx, where: str, args: Sequence[Any]) -> None:
        """Recompute `due_at` of the games matching a condition on `g` from their wait and timers."""
        rows = await tx.fetch(
            "SELECT g.id, g.status, g.updated_at, g.version, g.reminded_version, g.reminder_hours, g.timeout_hours,"
            " g.paused_reason, gs.guild_id AS configured, gs.reminder_hours AS guild_reminder,"
            " gs.timeout_hours AS guild_timeout, COALESCE(gr.rated, 1) AS rated"
            " FROM games g LEFT JOIN guild_settings gs ON gs.guild_id = COALESCE(g.guild_id, 0)"
            f" LEFT JOIN game_rating gr ON gr.game_id = g.id WHERE {where}",
            args,
        )
        updates = []
        for r in rows:
            due = None
            if r["status"] == ACTIVE and r["paused_reason"] is None:
                server = GuildSettings(r["guild_reminder"], r["guild_timeout"]) if r["configured"] else GuildSettings()
                timeout = server.timeout_hours if r["timeout_hours"] is None else r["timeout_hours"]
                due = due_moment(
                    r["updated_at"],
                    reminder_hours=server.reminder_hours if r["reminder_hours"] is None else r["reminder_hours"],
                    timeout_hours=timeout or stall_limit(timeout, bool(r["rated"])),
                    reminded=r["reminded_version"] == r["version"],
                )
            updates.append((due, r["id"]))
        if updates:
            await tx.executemany("UPDATE games SET due_at = ? WHERE id = ?", updates)
