"""Save and load games, seats and the action log; every write is one transaction, on SQLite or PostgreSQL.

Every query lives here once, written with `?` placeholders in SQL both dialects accept; storage/backends.py
runs it on aiosqlite or asyncpg (translating placeholders to `$n`). To add a query:

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
  `active_games_with_bots`).
Where the dialects truly differ, branch on `self.backend.dialect` ("sqlite" or "postgresql"), and put schema
changes in storage/migrations.py (one entry per migration, per-dialect text only where needed).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.backends import (
    BUSY_TIMEOUT_MS,
    Backend,
    DatabaseBusy,
    IntegrityError,
    Row,
    StorageError,
    Tx,
    make_backend,
    sqlite_path,
)

__all__ = ["ChannelBusy", "Database", "GameRow", "Result", "Seat", "Shards", "StaleVersion", "StorageError"]
__all__ += ["BUSY_TIMEOUT_MS", "DatabaseBusy", "GuildSettings", "PlayerStats", "due_moment", "sqlite_path", "utc_now"]

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
ABANDONED = "abandoned"
"""The game's channel, thread or server is gone: ended for good, kept in history, no winner, nothing retried."""
OPEN = (LOBBY, ACTIVE)
ENDED = (FINISHED, CANCELLED, ABANDONED)
SHOWN = (ACTIVE, FINISHED)
"""Statuses whose newest board belongs in the channel (the board outbox posts it when it is behind)."""
SQL_INT = range(-(2**63), 2**63)
GAME_SELECT = (
    "SELECT g.*, s.seat AS seat_no, s.user_id AS seat_user, s.name AS seat_name, s.bot_level AS seat_bot"
    " FROM games g LEFT JOIN seats s ON s.game_id = g.id"
)
# Touch a game row inside a transaction: takes its write lock (PostgreSQL) and returns its status.
LOCK_GAME = "UPDATE games SET updated_at = ? WHERE id = ? RETURNING status"


class StaleVersion(StorageError):
    """Raise when a game changed since it was read, so this change must not apply."""


class ChannelBusy(StorageError):
    """Raise when a channel already has an open game."""


@dataclass(frozen=True)
class Seat:
    """Say which Discord user (or computer player) sits in which seat, and the name shown for them."""

    seat: int
    user_id: int
    name: str
    bot_level: str | None = None
    """"easy" or "hard" for a computer player (its user_id is negative), None for a person."""

    @property
    def is_bot(self) -> bool:
        """Return True for a computer player."""
        return self.bot_level is not None

    @property
    def mention(self) -> str:
        """Return a ping for a person, or the plain name of a computer player."""
        return self.name if self.is_bot else f"<@{self.user_id}>"


@dataclass(frozen=True)
class Result:
    """Hold one seat's final result, saved with the game's last action."""

    seat: int
    user_id: int
    is_bot: bool
    score: int
    rank: int
    winner: bool


@dataclass
class GameRow:
    """Hold one saved game as stored: Discord IDs and JSON text, never Discord objects."""

    id: int
    guild_id: int | None
    channel_id: int
    kind: str
    status: str
    host_id: int
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None
    created_at: str
    updated_at: str
    seats: list[Seat] = field(default_factory=list)
    reminder_hours: float | None = None
    timeout_hours: float | None = None
    reminded_version: int = 0
    rematch_of: int | None = None
    state_error: str | None = None
    """Set when the saved state JSON could not be read."""
    due_at: int | None = None
    """When (Unix seconds) the scheduler must next look at this game; None: nothing is due."""
    paused_reason: str | None = None
    """Why the bot cannot post in the game's channel (its timers wait meanwhile); None: not paused."""
    paused_at: str | None = None
    posted_version: int = 0
    """The state version the game's posted board shows; behind `version` until the newest board is posted."""
    rules: int | None = None
    """The rules version the game was dealt under (its engine's state schema then); None: saved before it was kept."""

    @property
    def board_behind(self) -> bool:
        """Return True when a saved version of a shown game has no posted board yet."""
        return self.status in SHOWN and self.posted_version < self.version

    @property
    def paused(self) -> bool:
        """Return True while the game waits for the bot to be allowed to post in its channel again."""
        return self.paused_reason is not None

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat of a user, or None if they are not seated."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    @property
    def names(self) -> list[str]:
        """Return the seat names in seat order."""
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]


def utc_now() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)


def due_moment(
    updated_at: str, *, reminder_hours: float | None, timeout_hours: float | None, reminded: bool
) -> int | None:
    """Return when (Unix seconds, rounded up) a wait that began at `updated_at` next needs a reminder or timeout."""
    start = datetime.fromisoformat(updated_at).timestamp()
    moments = [start + timeout_hours * 3600] if timeout_hours else []
    if reminder_hours and not reminded:
        moments.append(start + reminder_hours * 3600)
    return math.ceil(min(moments)) if moments else None


@dataclass(frozen=True)
class Shards:
    """Name the Discord shards this process runs; it owns the games of the guilds on them.

    Discord puts a guild on shard `(guild_id >> 22) % count` and direct messages on shard 0, so games
    without a guild belong to shard 0.
    """

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        """Tell whether a game in this guild is this process's to schedule."""
        return ((guild_id or 0) >> 22) % self.count in self.ids


def _parse_game(row: Row) -> GameRow:
    """Build a GameRow without seats, tolerating a damaged state or options column."""
    state: dict[str, Any] | None = None
    error = None
    if row["state"] is not None:
        try:
            state = json.loads(row["state"])
            if not isinstance(state, dict):
                raise ValueError("state is not a JSON object")
        except ValueError as exc:
            state, error = None, f"saved state is not valid JSON: {exc}"
    try:
        options = json.loads(row["options"])
    except ValueError:
        options, error = {}, "saved options are not valid JSON"
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        status=row["status"],
        host_id=row["host_id"],
        options=options,
        seed=row["seed"],
        state=state,
        version=row["version"],
        board_message_id=row["board_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        reminder_hours=row["reminder_hours"],
        timeout_hours=row["timeout_hours"],
        reminded_version=row["reminded_version"],
        rematch_of=row["rematch_of"],
        state_error=error,
        due_at=row["due_at"],
        paused_reason=row["paused_reason"],
        paused_at=row["paused_at"],
        posted_version=row["posted_version"],
        rules=row["rules"],
    )


def games_from_rows(rows: Sequence[Row]) -> list[GameRow]:
    """Group rows of GAME_SELECT (one per seat, ordered by game) into games with their seats."""
    games: list[GameRow] = []
    for row in rows:
        if not games or games[-1].id != row["id"]:
            games.append(_parse_game(row))
        if row["seat_no"] is not None:
            games[-1].seats.append(Seat(row["seat_no"], row["seat_user"], row["seat_name"], row["seat_bot"]))
    return games


class Database:
    """Own every query the bot makes, on the backend DATABASE_URL names (SQLite by default).

    `target` is a DATABASE_URL (sqlite:///..., postgresql://...) or a SQLite file path. With `shards`,
    `due_games` and `active_games_with_bots` return only the games of guilds on those shards.
    """

    def __init__(
        self,
        target: str,
        clock: Callable[[], datetime] = utc_now,
        *,
        pool_size: int = 10,
        shards: Shards | None = None,
    ) -> None:
        self.path = target
        self.clock = clock
        self.shards = shards
        self.backend: Backend = make_backend(target, pool_size=pool_size)

    async def open(self) -> None:
        """Connect and apply pending migrations."""
        await self.backend.open()

    async def close(self) -> None:
        """Disconnect."""
        await self.backend.close()

    async def schema_version(self) -> int:
        """Return how many migrations the database has."""
        return await self.backend.schema_version()

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
            " gs.timeout_hours AS guild_timeout"
            f" FROM games g LEFT JOIN guild_settings gs ON gs.guild_id = COALESCE(g.guild_id, 0) WHERE {where}",
            args,
        )
        updates = []
        for r in rows:
            due = None
            if r["status"] == ACTIVE and r["paused_reason"] is None:
                server = GuildSettings(r["guild_reminder"], r["guild_timeout"]) if r["configured"] else GuildSettings()
                due = due_moment(
                    r["updated_at"],
                    reminder_hours=server.reminder_hours if r["reminder_hours"] is None else r["reminder_hours"],
                    timeout_hours=server.timeout_hours if r["timeout_hours"] is None else r["timeout_hours"],
                    reminded=r["reminded_version"] == r["version"],
                )
            updates.append((due, r["id"]))
        if updates:
            await tx.executemany("UPDATE games SET due_at = ? WHERE id = ?", updates)

    # -- metadata -------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """Return a stored setting, or None."""
        rows = await self.backend.fetch("SELECT value FROM meta WHERE key = ?", (key,))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting."""
        await self.backend.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- games ----------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        kind: str,
        host: Seat,
        options: dict[str, Any],
        seed: int,
    ) -> GameRow:
        """Open a lobby in a channel with the host in seat 0; raise ChannelBusy if one is open."""
        now = self._now()
        try:
            async with self.backend.transaction() as tx:
                rows = await tx.fetch(
                    "INSERT INTO games (guild_id, channel_id, kind, status, host_id, options, seed, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, kind, LOBBY, host.user_id, json.dumps(options), seed, now, now),
                )
                game_id = int(rows[0][0])
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (game_id, host.user_id, host.name),
                )
        except IntegrityError as exc:
            raise ChannelBusy("this channel already has a game") from exc
        row = await self.game(game_id)
        assert row is not None
        return row

    async def game(self, game_id: int) -> GameRow | None:
        """Return a game by id, or None (also for a number too large to be any game's)."""
        if game_id not in SQL_INT:
            return None
        found = await self._games("g.id = ?", (game_id,))
        return found[0] if found else None

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """Return the lobby or active game in a channel, or None."""
        found = await self._games("g.channel_id = ? AND g.status IN ('lobby', 'active')", (channel_id,))
        return found[0] if found else None

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """Return every game in one of these statuses, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        return await self._games(f"g.status IN ({marks})", statuses)

    async def seat_player(
        self, game_id: int, user_id: int, name: str, max_seats: int, bot_level: str | None = None
    ) -> int:
        """Give a user (or a computer player) the first free seat of a lobby; return it, or raise StorageError."""
        async with self.backend.transaction() as tx:
            row = await tx.fetch(LOCK_GAME, (self._now(), game_id))
            if not row or row[0][0] != LOBBY:
                raise StorageError("This game is no longer open to join.")
            found = await tx.fetch("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))
            taken = {r[0]: r[1] for r in found}
            if user_id in taken.values():
                raise StorageError("You are already seated in this game.")
            if len(taken) >= max_seats:
                raise StorageError(f"The game is full ({max_seats} players).")
            seat = min(set(range(max_seats)) - set(taken))
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, bot_level) VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, user_id, name, bot_level),
            )
            return seat

    async def unseat_player(self, game_id: int, user_id: int) -> None:
        """Remove a user from a lobby and close the gaps so seats stay 0..n-1."""
        async with self.backend.transaction() as tx:
            row = await tx.fetch(LOCK_GAME, (self._now(), game_id))
            if not row or row[0][0] != LOBBY:
                raise StorageError("The game has already started: use /game resign instead.")
            if await tx.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 0:
                raise StorageError("You are not seated in this game.")
            seats = [r[0] for r in await tx.fetch("SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]
            for new, old in enumerate(seats):
                if new != old:
                    await tx.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (new, game_id, old))

    async def start_game(
        self, game_id: int, state: dict[str, Any], expected_version: int, rules: int | None = None
    ) -> int:
        """Turn a lobby into an active game with its first state, dealt under `rules`; return the new version."""
        return await self._write(game_id, expected_version, state, ACTIVE, None, require=LOBBY, rules=rules)

    async def record_action(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        *,
        seat: int | None,
        user_id: int | None,
        action: dict[str, Any],
        events: Sequence[dict[str, Any]],
        finished: bool,
        results: Sequence[Result] = (),
        rules: int | None = None,
    ) -> int:
        """Save the new state, append the action (applied under `rules`) and, at the end, the results, at once."""
        log = (seat, user_id, json.dumps(action), json.dumps(list(events)))
        status = FINISHED if finished else ACTIVE
        return await self._write(
            game_id, expected_version, state, status, log, require=ACTIVE, results=results, rules=rules
        )

    async def _write(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        status: str,
        log: tuple[int | None, int | None, str, str] | None,
        require: str,
        results: Sequence[Result] = (),
        rules: int | None = None,
    ) -> int:
        """Write a state only if the game is still at `expected_version` and in status `require`.

        The guarded UPDATE takes the row's write lock first, so of two writers at the same version (in this
        process or another) exactly one matches; the other raises StaleVersion and changes nothing.
        """
        now = self._now()
        async with self.backend.transaction() as tx:
            found = await tx.fetch(
                "UPDATE games SET state = ?, status = ?, version = version + 1, updated_at = ?,"
                " rules = CASE WHEN version = 0 THEN ? ELSE rules END"
                " WHERE id = ? AND version = ? AND status = ? RETURNING guild_id, kind",
                (json.dumps(state), status, now, rules, game_id, expected_version, require),
            )
            if not found:
                raise StaleVersion("Someone else acted first: this board is out of date.")
            if log is not None:
                await tx.execute(
                    "INSERT INTO actions (game_id, version, seat, user_id, action, events, created_at, rules)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, expected_version + 1, *log, now, rules),
                )
            guild_id, kind = found[0][0], found[0][1]
            for r in results:
                await tx.execute(
                    "INSERT INTO results (game_id, seat, guild_id, kind, user_id, is_bot, score, rank, winner,"
                    " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, r.seat, guild_id, kind, r.user_id, int(r.is_bot), r.score, r.rank, int(r.winner), now),
                )
            await self._refresh_due(tx, "g.id = ?", (game_id,))
        return expected_version + 1

    async def set_status(self, game_id: int, status: str) -> bool:
        """Move an open game to a final status; return False if it was no longer open."""
        changed = await self.backend.execute(
            "UPDATE games SET status = ?, version = version + 1, updated_at = ?, due_at = NULL"
            " WHERE id = ? AND status IN ('lobby', 'active')",
            (status, self._now(), game_id),
        )
        return changed == 1

    # -- games that outlive their channel ------------------------------------------------------------

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
        return await self._games("g.guild_id = ? AND g.paused_reason IS NOT NULL AND g.status IN ('lobby', 'active')",
                                 (guild_id,))

    # -- what the scheduler and start-up look at (only this process's shards) ---------------------------

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

    async def games_behind(self) -> list[GameRow]:
        """Return this process's active and finished games whose newest version has no posted board, oldest first."""
        owned, args = self._owned()
        return await self._games(f"g.status IN (?, ?) AND g.posted_version < g.version AND {owned}", (*SHOWN, *args))

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """Return a game's action log in order."""
        if game_id not in SQL_INT:
            return []
        rows = await self.backend.fetch(
            "SELECT version, seat, user_id, action, events, created_at, rules FROM actions WHERE game_id = ?"
            " ORDER BY version",
            (game_id,),
        )
        return [
            {
                "version": r["version"],
                "seat": r["seat"],
                "user_id": r["user_id"],
                "action": json.loads(r["action"]),
                "events": json.loads(r["events"]),
                "created_at": r["created_at"],
                "rules": r["rules"],
            }
            for r in rows
        ]

    # -- computer players, reminders and settings ---------------------------------------------------

    async def hand_seat_to_bot(self, game_id: int, seat: int, level: str, name: str) -> None:
        """Let a computer player take over a seat for the rest of the game."""
        await self.backend.execute(
            "UPDATE seats SET bot_level = ?, name = ? WHERE game_id = ? AND seat = ?", (level, name, game_id, seat)
        )

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

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """Return a server's settings, or the defaults."""
        rows = await self.backend.fetch(
            "SELECT reminder_hours, timeout_hours, thread_default FROM guild_settings WHERE guild_id = ?",
            (guild_id or 0,),
        )
        if not rows:
            return GuildSettings()
        return GuildSettings(rows[0][0], rows[0][1], bool(rows[0][2]))

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Store a server's settings."""
        async with self.backend.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, reminder_hours, timeout_hours, thread_default)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET reminder_hours = excluded.reminder_hours,"
                " timeout_hours = excluded.timeout_hours, thread_default = excluded.thread_default",
                (guild_id, settings.reminder_hours, settings.timeout_hours, int(settings.thread_default)),
            )
            await self._refresh_due(tx, "g.guild_id = ? AND g.status = 'active'", (guild_id,))

    async def wants_dm_reminders(self, user_id: int) -> bool:
        """Return True when a user opted in to reminders by DM."""
        rows = await self.backend.fetch("SELECT dm FROM notify WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0][0])

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Store a user's choice about reminders by DM."""
        await self.backend.execute(
            "INSERT INTO notify (user_id, dm) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm",
            (user_id, int(on)),
        )

    # -- lists, history and records ---------------------------------------------------------------

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


@dataclass(frozen=True)
class GuildSettings:
    """Hold a server's defaults for new games."""

    reminder_hours: float = 12.0
    timeout_hours: float | None = None
    thread_default: bool = False


@dataclass(frozen=True)
class PlayerStats:
    """Summarise one player's finished games of one type."""

    kind: str
    games: int
    wins: int
    average_score: float
