"""Save and load games, seats and the action log; every write is one transaction."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)

T = TypeVar("T")
LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
ABANDONED = "abandoned"
"""The game's channel, thread or server is gone: ended for good, kept in history, no winner, nothing retried."""
OPEN = (LOBBY, ACTIVE)
SHOWN = (ACTIVE, FINISHED)
"""Statuses whose newest board belongs in the channel (the board outbox posts it when it is behind)."""
BUSY_TIMEOUT_MS = 1500
"""How long a write waits for another writer's lock: well inside Discord's 3 s to acknowledge an interaction."""
SQL_INT = range(-(2**63), 2**63)
ENDED = (FINISHED, CANCELLED, ABANDONED)
GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, status, host_id, options, seed, state, version, board_message_id, created_at,"
    " updated_at, reminder_hours, timeout_hours, reminded_version, rematch_of, due_at, paused_reason, paused_at,"
    " posted_version"
)


class StorageError(Exception):
    """Raise when the database refuses a change."""


class StaleVersion(StorageError):
    """Raise when a game changed since it was read, so this change must not apply."""


class ChannelBusy(StorageError):
    """Raise when a channel already has an open game."""


class DatabaseBusy(StorageError):
    """Raise when another writer held the database longer than a player can wait; nothing was changed."""


BUSY_TEXT = "The game's database is busy right now, so nothing was changed. Please try again in a moment."


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
    posted_version: int = 0
    """The state version the game's posted board shows; behind `version` until the newest board is posted."""
    state_error: str | None = None
    """Set when the saved state JSON could not be read."""
    due_at: int | None = None
    """When (Unix seconds) the scheduler must next look at this game; None: nothing is due."""
    paused_reason: str | None = None
    """Why the bot cannot post in the game's channel (its timers wait meanwhile); None: not paused."""
    paused_at: str | None = None

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

    @property
    def board_behind(self) -> bool:
        """Return True when a saved version of a shown game has no posted board yet."""
        return self.status in SHOWN and self.posted_version < self.version


def sqlite_path(url: str) -> str:
    """Turn a DATABASE_URL such as sqlite:///data/ice_floe.db into a file path."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise ValueError(f"DATABASE_URL must start with {prefix} (got {url!r})")
    path = url[len(prefix) :]
    if not path:
        raise ValueError("DATABASE_URL names no file")
    return path


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


def game_row(row: aiosqlite.Row, seats: list[Seat]) -> GameRow:
    """Build a GameRow from a games row and its seats, tolerating a damaged state or options column."""
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
        seats=seats,
        reminder_hours=row["reminder_hours"],
        timeout_hours=row["timeout_hours"],
        reminded_version=row["reminded_version"],
        rematch_of=row["rematch_of"],
        posted_version=row["posted_version"],
        state_error=error,
        due_at=row["due_at"],
        paused_reason=row["paused_reason"],
        paused_at=row["paused_at"],
    )


class _TaskLock:
    """Let one task at a time use the connection; the holding task may re-enter."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Hold the connection for the current task."""
        me = asyncio.current_task()
        if me is not None and self._owner is me:
            yield
            return
        async with self._lock:
            self._owner = me
            try:
                yield
            finally:
                self._owner = None


def serialized(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Run a Database method while holding its connection, so transactions never interleave."""

    @functools.wraps(method)
    async def wrapper(self: Database, *args: Any, **kwargs: Any) -> T:
        async with self._guard.hold():
            try:
                return await method(self, *args, **kwargs)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                log.warning("the database stayed locked for %s ms: %s", BUSY_TIMEOUT_MS, exc)
                raise DatabaseBusy(BUSY_TEXT) from exc

    return wrapper


class Database:
    """Own one aiosqlite connection in WAL mode and every query the bot makes.

    Every public method holds the connection for its whole run: coroutines share one connection, and a
    transaction must never see another coroutine's statements.
    """

    def __init__(self, path: str, clock: Callable[[], datetime] = utc_now) -> None:
        self.path = path
        self.clock = clock
        self._conn: aiosqlite.Connection | None = None
        self._guard = _TaskLock()

    @property
    def conn(self) -> aiosqlite.Connection:
        """Return the open connection."""
        if self._conn is None:
            raise StorageError("the database is not open")
        return self._conn

    async def open(self) -> None:
        """Open the file, switch on WAL and apply pending migrations."""
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = await aiosqlite.connect(self.path, isolation_level=None)
        self._conn.row_factory = aiosqlite.Row
        await self._conn.execute("PRAGMA journal_mode=WAL")
        await self._conn.execute("PRAGMA synchronous=NORMAL")
        await self._conn.execute("PRAGMA foreign_keys=ON")
        await self._conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        await self._migrate()

    async def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _migrate(self) -> None:
        """Apply every migration newer than the file's user_version."""
        async with self.conn.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
        if current >= len(MIGRATIONS):
            return
        await self.conn.execute("PRAGMA foreign_keys=OFF")  # a migration may rebuild a table others refer to
        try:
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                await self.conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};")
                broken = await self.conn.execute_fetchall("PRAGMA foreign_key_check")
                if broken:
                    await self.conn.execute("ROLLBACK")
                    raise StorageError(f"migration {number} broke {len(list(broken))} foreign key(s)")
                await self.conn.execute("COMMIT")
        finally:
            await self.conn.execute("PRAGMA foreign_keys=ON")

    @serialized
    async def schema_version(self) -> int:
        """Return how many migrations the file has."""
        async with self.conn.execute("PRAGMA user_version") as cur:
            (version,) = await cur.fetchone()
        return int(version)

    def _now(self) -> str:
        return self.clock().isoformat()

    async def _rollback(self, error: BaseException) -> None:
        """Undo the open transaction after `error`; if SQLite already undid it (disk full), keep the real cause."""
        if not self.conn.in_transaction:
            if isinstance(error, sqlite3.Error):
                log.warning("a database write failed and SQLite rolled it back: %s", error)
            return
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.Error as rollback_error:
            log.warning("a database write failed (%s); rolling it back failed too: %s", error, rollback_error)

    # -- metadata -------------------------------------------------------------------------------

    @serialized
    async def get_meta(self, key: str) -> str | None:
        """Return a stored setting, or None."""
        async with self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return None if row is None else str(row[0])

    @serialized
    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting."""
        await self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- games ----------------------------------------------------------------------------------

    @serialized
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
            await self.conn.execute("BEGIN IMMEDIATE")
            cur = await self.conn.execute(
                "INSERT INTO games (guild_id, channel_id, kind, status, host_id, options, seed, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, kind, LOBBY, host.user_id, json.dumps(options), seed, now, now),
            )
            game_id = cur.lastrowid
            await self.conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, host.user_id, host.name),
            )
            await self.conn.execute("COMMIT")
        except aiosqlite.IntegrityError as exc:
            await self._rollback(exc)
            raise ChannelBusy("this channel already has a game") from exc
        except BaseException as exc:
            await self._rollback(exc)
            raise
        row = await self.game(game_id)
        assert row is not None
        return row

    @serialized
    async def game(self, game_id: int) -> GameRow | None:
        """Return a game by id, or None (also for a number too large to be any game's)."""
        if game_id not in SQL_INT:
            return None
        rows = await self.conn.execute_fetchall("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if not rows else await self._with_seats(next(iter(rows)))

    @serialized
    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """Return the lobby or active game in a channel, or None."""
        rows = await self.conn.execute_fetchall(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return None if not rows else await self._with_seats(next(iter(rows)))

    @serialized
    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """Return every game in one of these statuses, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        async with self.conn.execute(f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", statuses) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(row) for row in rows]

    async def _with_seats(self, row: aiosqlite.Row) -> GameRow:
        """Build a GameRow, reading its seats and tolerating a damaged state column."""
        found = await self.conn.execute_fetchall(
            "SELECT seat, user_id, name, bot_level FROM seats WHERE game_id = ? ORDER BY seat", (row["id"],)
        )
        return game_row(row, [Seat(r["seat"], r["user_id"], r["name"], r["bot_level"]) for r in found])

    async def _rows_with_seats(self, where: str, args: Sequence[Any], limit: int) -> list[GameRow]:
        """Return up to `limit` games matching `where`, oldest first, with their seats, in one joined query."""
        rows = await self.conn.execute_fetchall(
            "SELECT g.*, s.seat AS seat_no, s.user_id AS seat_user, s.name AS seat_name, s.bot_level AS seat_bot"
            f" FROM (SELECT {GAME_COLUMNS} FROM games WHERE {where} ORDER BY id LIMIT ?) g"
            " LEFT JOIN seats s ON s.game_id = g.id ORDER BY g.id, s.seat",
            (*args, limit),
        )
        games: dict[int, tuple[aiosqlite.Row, list[Seat]]] = {}
        for r in rows:
            _, seats = games.setdefault(r["id"], (r, []))
            if r["seat_no"] is not None:
                seats.append(Seat(r["seat_no"], r["seat_user"], r["seat_name"], r["seat_bot"]))
        return [game_row(r, seats) for r, seats in games.values()]

    async def _refresh_due(self, where: str, args: Sequence[Any]) -> None:
        """Recompute `due_at` of the games matching `where` (on games g) from their wait and timers."""
        rows = await self.conn.execute_fetchall(
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
        await self.conn.executemany("UPDATE games SET due_at = ? WHERE id = ?", updates)

    @serialized
    async def seat_player(
        self, game_id: int, user_id: int, name: str, max_seats: int, bot_level: str | None = None
    ) -> int:
        """Give a user (or a computer player) the first free seat of a lobby; return it, or raise StorageError."""
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            async with self.conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None or row[0] != LOBBY:
                raise StorageError("This game is no longer open to join.")
            async with self.conn.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,)) as cur:
                taken = {r[0]: r[1] for r in await cur.fetchall()}
            if user_id in taken.values():
                raise StorageError("You are already seated in this game.")
            if len(taken) >= max_seats:
                raise StorageError(f"The game is full ({max_seats} players).")
            seat = min(set(range(max_seats)) - set(taken))
            await self.conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, bot_level) VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, user_id, name, bot_level),
            )
            await self.conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self._now(), game_id))
            await self.conn.execute("COMMIT")
            return seat
        except BaseException as exc:
            await self._rollback(exc)
            raise

    @serialized
    async def unseat_player(self, game_id: int, user_id: int) -> None:
        """Remove a user from a lobby and close the gaps so seats stay 0..n-1."""
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            async with self.conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None or row[0] != LOBBY:
                raise StorageError("The game has already started: use /game resign instead.")
            cur = await self.conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            if cur.rowcount == 0:
                raise StorageError("You are not seated in this game.")
            async with self.conn.execute("SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)) as cur2:
                seats = [r[0] for r in await cur2.fetchall()]
            for new, old in enumerate(seats):
                if new != old:
                    await self.conn.execute(
                        "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (new, game_id, old)
                    )
            await self.conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self._now(), game_id))
            await self.conn.execute("COMMIT")
        except BaseException as exc:
            await self._rollback(exc)
            raise

    @serialized
    async def start_game(self, game_id: int, state: dict[str, Any], expected_version: int) -> int:
        """Turn a lobby into an active game with its first state; return the new version."""
        return await self._write(game_id, expected_version, state, ACTIVE, None, require=LOBBY)

    @serialized
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
    ) -> int:
        """Save the new state, append the action and, at the end, the results, in one transaction."""
        log = (seat, user_id, json.dumps(action), json.dumps(list(events)))
        status = FINISHED if finished else ACTIVE
        return await self._write(game_id, expected_version, state, status, log, require=ACTIVE, results=results)

    async def _write(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        status: str,
        log: tuple[int | None, int | None, str, str] | None,
        require: str,
        results: Sequence[Result] = (),
    ) -> int:
        """Write a state only if the game is still at `expected_version` and in status `require`."""
        now = self._now()
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            cur = await self.conn.execute(
                "UPDATE games SET state = ?, status = ?, version = version + 1, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = ?",
                (json.dumps(state), status, now, game_id, expected_version, require),
            )
            if cur.rowcount != 1:
                raise StaleVersion("Someone else acted first: this board is out of date.")
            if log is not None:
                await self.conn.execute(
                    "INSERT INTO actions (game_id, version, seat, user_id, action, events, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, expected_version + 1, *log, now),
                )
            for r in results:
                await self.conn.execute(
                    "INSERT INTO results (game_id, seat, guild_id, kind, user_id, is_bot, score, rank, winner,"
                    " finished_at) SELECT id, ?, guild_id, kind, ?, ?, ?, ?, ?, ? FROM games WHERE id = ?",
                    (r.seat, r.user_id, int(r.is_bot), r.score, r.rank, int(r.winner), now, game_id),
                )
            await self._refresh_due("g.id = ?", (game_id,))
            await self.conn.execute("COMMIT")
        except BaseException as exc:
            await self._rollback(exc)
            raise
        return expected_version + 1

    @serialized
    async def set_status(self, game_id: int, status: str) -> bool:
        """Move an open game to a final status; return False if it was no longer open."""
        cur = await self.conn.execute(
            "UPDATE games SET status = ?, version = version + 1, updated_at = ?, due_at = NULL"
            " WHERE id = ? AND status IN ('lobby', 'active')",
            (status, self._now(), game_id),
        )
        return cur.rowcount == 1

    # -- games that outlive their channel ------------------------------------------------------------

    @serialized
    async def _abandon(self, where: str, args: Sequence[Any]) -> list[GameRow]:
        """End the open games matching `where` as abandoned (no winner, timers stopped); return them."""
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            found = await self._rows_with_seats(f"({where}) AND status IN ('lobby', 'active')", args, 10_000)
            await self.conn.executemany(
                "UPDATE games SET status = ?, version = version + 1, updated_at = ?, due_at = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                [(ABANDONED, self._now(), row.id) for row in found],
            )
            await self.conn.execute("COMMIT")
        except BaseException as exc:
            await self._rollback(exc)
            raise
        return found

    async def abandon_channel(self, channel_id: int) -> list[GameRow]:
        """End the open game of a deleted channel or thread as abandoned; return it (or nothing)."""
        return await self._abandon("channel_id = ?", (channel_id,))

    async def abandon_guild(self, guild_id: int) -> list[GameRow]:
        """End every open game of a server the bot left as abandoned; return them."""
        return await self._abandon("guild_id = ?", (guild_id,))

    @serialized
    async def pause(self, game_id: int, reason: str) -> bool:
        """Stop an open game's timers because the bot cannot post; return True if it was not paused yet."""
        cur = await self.conn.execute(
            "UPDATE games SET paused_reason = ?, paused_at = ?, due_at = NULL"
            " WHERE id = ? AND status IN ('lobby', 'active') AND paused_reason IS NULL",
            (reason, self._now(), game_id),
        )
        return cur.rowcount == 1

    @serialized
    async def unpause(self, game_id: int) -> bool:
        """Let a paused game's timers run again, counting the wait before the pause; return True if it was paused."""
        rows = await self.conn.execute_fetchall(
            "SELECT updated_at, paused_at FROM games WHERE id = ? AND paused_reason IS NOT NULL", (game_id,)
        )
        if not rows:
            return False
        (row,) = rows
        now = self.clock()
        began, paused = datetime.fromisoformat(row["updated_at"]), datetime.fromisoformat(row["paused_at"])
        waited = max(paused - began, timedelta(0))  # activity during the pause restarts the wait
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            await self.conn.execute(
                "UPDATE games SET paused_reason = NULL, paused_at = NULL, updated_at = ? WHERE id = ?",
                ((now - waited).isoformat(), game_id),
            )
            await self._refresh_due("g.id = ?", (game_id,))
            await self.conn.execute("COMMIT")
        except BaseException as exc:
            await self._rollback(exc)
            raise
        return True

    @serialized
    async def paused_channels(self) -> set[int]:
        """Return the channels whose open game is paused."""
        rows = await self.conn.execute_fetchall(
            "SELECT channel_id FROM games WHERE paused_reason IS NOT NULL AND status IN ('lobby', 'active')"
        )
        return {r[0] for r in rows}

    @serialized
    async def paused_games(self, guild_id: int) -> list[GameRow]:
        """Return a server's paused open games."""
        return await self._rows_with_seats(
            "guild_id = ? AND paused_reason IS NOT NULL AND status IN ('lobby', 'active')", (guild_id,), 10_000
        )

    # -- what the scheduler and start-up look at ---------------------------------------------------

    @serialized
    async def due_games(self, now: datetime, after_id: int, limit: int) -> list[GameRow]:
        """Return up to `limit` active games above `after_id` whose reminder or timeout is due, with their seats."""
        return await self._rows_with_seats(
            "due_at <= ? AND id > ? AND status = 'active'", (math.floor(now.timestamp()), after_id), limit
        )

    @serialized
    async def set_due(self, game_id: int, version: int, due_at: int | None) -> None:
        """Store when the scheduler must next look at a game, unless the game moved on meanwhile."""
        await self.conn.execute("UPDATE games SET due_at = ? WHERE id = ? AND version = ?", (due_at, game_id, version))

    @serialized
    async def refresh_due(self, game_id: int) -> None:
        """Recompute when the scheduler must next look at a game (after a seat changed hands, say)."""
        await self._refresh_due("g.id = ?", (game_id,))

    @serialized
    async def active_games_with_bots(self, after_id: int, limit: int) -> list[GameRow]:
        """Return up to `limit` active games with a computer player and an id above `after_id`, with their seats."""
        return await self._rows_with_seats(
            "status = 'active' AND id > ?"
            " AND id IN (SELECT game_id FROM seats WHERE bot_level IS NOT NULL AND game_id > ?)",
            (after_id, after_id),
            limit,
        )

    @serialized
    async def set_board_message(self, game_id: int, message_id: int | None, version: int | None = None) -> None:
        """Remember which channel message shows the current board and, with `version`, which state it shows.

        A board of an older version than the one already posted changes nothing.
        """
        if version is None:
            await self.conn.execute("UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id))
            return
        await self.conn.execute(
            "UPDATE games SET board_message_id = ?, posted_version = ? WHERE id = ? AND posted_version <= ?",
            (message_id, version, game_id, version),
        )

    @serialized
    async def games_behind(self) -> list[GameRow]:
        """Return the active and finished games whose newest saved version has no posted board, oldest first."""
        async with self.conn.execute(
            "SELECT * FROM games WHERE status IN (?, ?) AND posted_version < version ORDER BY id", SHOWN
        ) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(row) for row in rows]

    @serialized
    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """Return a game's action log in order."""
        if game_id not in SQL_INT:
            return []
        async with self.conn.execute(
            "SELECT version, seat, user_id, action, events, created_at FROM actions WHERE game_id = ? ORDER BY version",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [
            {
                "version": r["version"],
                "seat": r["seat"],
                "user_id": r["user_id"],
                "action": json.loads(r["action"]),
                "events": json.loads(r["events"]),
                "created_at": r["created_at"],
            }
            for r in rows
        ]

    # -- computer players, reminders and settings ---------------------------------------------------

    @serialized
    async def hand_seat_to_bot(self, game_id: int, seat: int, level: str, name: str) -> None:
        """Let a computer player take over a seat for the rest of the game."""
        await self.conn.execute(
            "UPDATE seats SET bot_level = ?, name = ? WHERE game_id = ? AND seat = ?", (level, name, game_id, seat)
        )

    @serialized
    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record that the wait at `version` was reminded; return False if it already was or has moved on."""
        cur = await self.conn.execute(
            "UPDATE games SET reminded_version = ? WHERE id = ? AND version = ? AND reminded_version != ?",
            (version, game_id, version, version),
        )
        if cur.rowcount != 1:
            return False
        await self._refresh_due("g.id = ?", (game_id,))
        return True

    @serialized
    async def set_game_timers(self, game_id: int, reminder_hours: float | None, timeout_hours: float | None) -> None:
        """Store a game's own reminder delay and timeout (None: use the server's)."""
        await self.conn.execute(
            "UPDATE games SET reminder_hours = ?, timeout_hours = ? WHERE id = ?",
            (reminder_hours, timeout_hours, game_id),
        )
        await self._refresh_due("g.id = ?", (game_id,))

    @serialized
    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """Return a server's settings, or the defaults."""
        async with self.conn.execute(
            "SELECT reminder_hours, timeout_hours, thread_default FROM guild_settings WHERE guild_id = ?",
            (guild_id or 0,),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return GuildSettings()
        return GuildSettings(row[0], row[1], bool(row[2]))

    @serialized
    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Store a server's settings."""
        await self.conn.execute(
            "INSERT INTO guild_settings (guild_id, reminder_hours, timeout_hours, thread_default) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET reminder_hours = excluded.reminder_hours,"
            " timeout_hours = excluded.timeout_hours, thread_default = excluded.thread_default",
            (guild_id, settings.reminder_hours, settings.timeout_hours, int(settings.thread_default)),
        )
        await self._refresh_due("g.guild_id = ? AND g.status = 'active'", (guild_id,))

    @serialized
    async def wants_dm_reminders(self, user_id: int) -> bool:
        """Return True when a user opted in to reminders by DM."""
        async with self.conn.execute("SELECT dm FROM notify WHERE user_id = ?", (user_id,)) as cur:
            row = await cur.fetchone()
        return bool(row and row[0])

    @serialized
    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Store a user's choice about reminders by DM."""
        await self.conn.execute(
            "INSERT INTO notify (user_id, dm) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm",
            (user_id, int(on)),
        )

    # -- lists, history and records ---------------------------------------------------------------

    @serialized
    async def open_games_in_guild(self, guild_id: int) -> list[GameRow]:
        """Return the lobbies and active games of a server, oldest first."""
        async with self.conn.execute(
            "SELECT * FROM games WHERE guild_id = ? AND status IN ('lobby', 'active') ORDER BY id", (guild_id,)
        ) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(row) for row in rows]

    @serialized
    async def active_games_of(self, user_id: int) -> list[GameRow]:
        """Return every active game, in any server, where a user holds a seat."""
        async with self.conn.execute(
            "SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = ? AND g.status = 'active' ORDER BY g.id",
            (user_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(row) for row in rows]

    @serialized
    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """Return the newest game of a channel, whatever its status."""
        async with self.conn.execute(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else await self._with_seats(row)

    @serialized
    async def player_stats(self, user_id: int, guild_id: int | None) -> list[PlayerStats]:
        """Return a user's games, wins and average score per game type (in one server, or everywhere)."""
        where, args = ("AND guild_id = ?", (user_id, guild_id)) if guild_id else ("", (user_id,))
        async with self.conn.execute(
            "SELECT kind, COUNT(*), SUM(winner), AVG(score) FROM results"
            f" WHERE user_id = ? AND is_bot = 0 {where} GROUP BY kind ORDER BY kind",
            args,
        ) as cur:
            return [PlayerStats(r[0], r[1], r[2] or 0, float(r[3] or 0)) for r in await cur.fetchall()]

    @serialized
    async def leaderboard(self, guild_id: int, kind: str, limit: int = 10) -> list[tuple[int, PlayerStats]]:
        """Return the best players of a game in a server: most wins, then best average score."""
        async with self.conn.execute(
            "SELECT user_id, COUNT(*), SUM(winner), AVG(score) FROM results"
            " WHERE guild_id = ? AND kind = ? AND is_bot = 0"
            " GROUP BY user_id ORDER BY SUM(winner) DESC, AVG(score) DESC, COUNT(*) DESC LIMIT ?",
            (guild_id, kind, limit),
        ) as cur:
            return [(r[0], PlayerStats(kind, r[1], r[2] or 0, float(r[3] or 0))) for r in await cur.fetchall()]


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
