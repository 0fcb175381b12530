"""Pick the backend a DATABASE_URL names: SQLite (aiosqlite) or PostgreSQL (asyncpg), behind one small interface.

Queries are written once, with `?` placeholders; the PostgreSQL backend turns them into `$1, $2, ...`.
Rows come back as mappings that also index by position (aiosqlite.Row, asyncpg.Record).

- `fetch(sql, args)` reads without taking the write lock: on SQLite a separate reader connection (WAL lets
  readers run beside the writer), on PostgreSQL any pooled connection.
- `execute(sql, args)` runs one write on its own and returns the number of rows it changed.
- `async with backend.transaction() as tx:` runs several statements (`tx.fetch`, `tx.execute`) atomically;
  on SQLite it is BEGIN IMMEDIATE on the single writer connection, on PostgreSQL a pooled connection's
  transaction (READ COMMITTED: a guarded `UPDATE ... WHERE version = ?` waits for a concurrent writer of the
  same row and then re-checks its condition, so only one of two racing writes matches).
A unique or foreign-key violation raises IntegrityError on both; every other driver error that means "busy" or
"unavailable" becomes DatabaseBusy or DatabaseUnavailable (storage/errors.py). The drivers live in
storage/sqlite.py and storage/postgresql.py; the interface they share in storage/sql.py.
"""

from __future__ import annotations

from storage.errors import (
    BUSY_TEXT,
    BUSY_TIMEOUT_MS,
    DatabaseBusy,
    DatabaseUnavailable,
    IntegrityError,
    StorageError,
)
from storage.patience import ACQUIRE_TIMEOUT_S
from storage.postgresql import (
    CONNECT_TIMEOUT_S,
    MIGRATION_LOCK,
    STATEMENT_TIMEOUT_MS,
    PostgresBackend,
    to_dollar,
)
from storage.sql import Backend, Row, Tx
from storage.sqlite import SqliteBackend

__all__ = ["BUSY_TEXT", "BUSY_TIMEOUT_MS", "DatabaseBusy", "DatabaseUnavailable", "IntegrityError", "StorageError"]
__all__ += ["Backend", "PostgresBackend", "Row", "SqliteBackend", "Tx", "is_postgres", "make_backend", "sqlite_path"]
__all__ += ["ACQUIRE_TIMEOUT_S", "CONNECT_TIMEOUT_S", "MIGRATION_LOCK", "STATEMENT_TIMEOUT_MS", "to_dollar"]

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def sqlite_path(url: str) -> str:
    """Turn a DATABASE_URL such as sqlite:///data/ice_floe.db into a file path."""
    if not url.startswith(SQLITE_PREFIX):
        raise ValueError(f"DATABASE_URL must start with {SQLITE_PREFIX} (got {url!r})")
    path = url[len(SQLITE_PREFIX) :]
    if not path:
        raise ValueError("DATABASE_URL names no file")
    return path


def is_postgres(url: str) -> bool:
    """Tell whether a DATABASE_URL names a PostgreSQL server."""
    return url.startswith(POSTGRES_PREFIXES)


def make_backend(target: str, *, pool_size: int = 10, statement_timeout_ms: int = STATEMENT_TIMEOUT_MS) -> Backend:
    """Return the backend for a DATABASE_URL (sqlite:///..., postgresql://...) or a plain SQLite file path.

    `statement_timeout_ms` bounds every PostgreSQL statement (0: no bound, for maintenance such as copying).
    """
    if is_postgres(target):
        return PostgresBackend(target, pool_size=pool_size, statement_timeout_ms=statement_timeout_ms)
    if target.startswith("sqlite:"):
        return SqliteBackend(sqlite_path(target))
    if "://" in target:
        raise ValueError(f"DATABASE_URL must start with {SQLITE_PREFIX} or postgresql:// (got {target!r})")
    return SqliteBackend(target)
