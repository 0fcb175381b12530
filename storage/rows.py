"""Hold what a saved game looks like in Python: statuses, seats, results, settings, shards and row parsing."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from storage.backends import Row, StorageError

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
    language: str | None = None
    """The catalog code its public posts are written in, chosen when it was created; None: English (older games)."""

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
        language=row["language"],
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
