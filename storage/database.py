"""Put the storage rooms together as `Database`, the one object the bot holds, and re-export their names.

Each concern has its own room, all built on `storage.core.Store` (the connection and shared query helpers):
games.py (games, seats, moves and the action log), lifecycle.py (abandoned and paused games), schedule.py
(due work, computer players' resume, the board outbox), settings.py (meta, server and user settings) and
records.py (lists, stats, leaderboards). The types a saved game is read into live in storage/rows.py.
Beneath them: errors.py (what can fail, outages logged once), sql.py (the backend interface), sqlite.py and
postgresql.py (the drivers), backends.py (picks one from DATABASE_URL). Beside them: ownership.py (one
process per shard), copy.py (python -m storage.copy), migrations.py. Imports run one way:
errors <- sql <- sqlite, postgresql <- backends <- rows <- core <- rooms <- database.
"""

from __future__ import annotations

from storage.backends import BUSY_TIMEOUT_MS, DatabaseBusy, StorageError, sqlite_path
from storage.games import GameQueries
from storage.lifecycle import LifecycleQueries
from storage.records import RecordQueries
from storage.rows import (
    ABANDONED,
    ACTIVE,
    CANCELLED,
    ENDED,
    FINISHED,
    LOBBY,
    OPEN,
    SHOWN,
    SQL_INT,
    ChannelBusy,
    GameRow,
    GuildSettings,
    PlayerStats,
    Result,
    Seat,
    Shards,
    StaleVersion,
    due_moment,
    games_from_rows,
    utc_now,
)
from storage.schedule import ScheduleQueries
from storage.settings import SettingsQueries

__all__ = ["ChannelBusy", "Database", "GameRow", "Result", "Seat", "Shards", "StaleVersion", "StorageError"]
__all__ += ["BUSY_TIMEOUT_MS", "DatabaseBusy", "GuildSettings", "PlayerStats", "due_moment", "sqlite_path", "utc_now"]
__all__ += ["ABANDONED", "ACTIVE", "CANCELLED", "ENDED", "FINISHED", "LOBBY", "OPEN", "SHOWN", "SQL_INT"]
__all__ += ["games_from_rows"]


class Database(GameQueries, LifecycleQueries, ScheduleQueries, SettingsQueries, RecordQueries):
    """Own every query the bot makes, on the backend DATABASE_URL names (SQLite by default).

    `target` is a DATABASE_URL (sqlite:///..., postgresql://...) or a SQLite file path. With `shards`,
    `due_games`, `active_games_with_bots` and `games_behind` return only the games of guilds on those shards.
    """
