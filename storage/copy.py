"""Copy every saved game, log, result and setting from one database to another (e.g. SQLite to PostgreSQL).

    python -m storage.copy sqlite:///data/ice_floe.db postgresql://floe:secret@db:5432/floe

Stop the bot first: the copy refuses while a bot process holds either database (its shard lease). The
destination gets the same migrations and must hold no games yet; ids are kept, so old board buttons keep
working, and new games continue after the highest copied id. Rows are read and written a batch at a time
(memory stays flat however large the history), all in one destination transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from storage.database import Database, Shards
from storage.ownership import ShardLease, ShardTaken, describe_process

# Parents before children (seats, actions and results point at games; a rematch points at an older game).
TABLES = (
    ("games", "id"),
    ("seats", "game_id, seat"),
    ("actions", "id"),
    ("results", "game_id, seat"),
    ("meta", "key"),
    ("guild_settings", "guild_id"),
    ("notify", "user_id"),
    ("replay_posts", "game_id"),
    ("game_rating", "game_id"),
    ("rating_settings", "guild_id"),
    ("ratings", "guild_id, kind, player"),
    ("rated_games", "game_id"),
    ("rating_history", "game_id, player"),
    ("takebacks", "id"),
    ("bot_replies", "game_id, seat, position"),
    ("hints", "game_id, seat, version"),
    ("guild_language", "guild_id"),
    ("user_language", "user_id"),
)
IDENTITY_TABLES = ("games", "actions", "takebacks")
BATCH = 1000


class CopyError(Exception):
    """Raise when the copy cannot start (a destination that already holds games, a bot still running)."""


async def hold(db: Database) -> ShardLease:
    """Take every shard of a database for the copy (no bot can start meanwhile); CopyError if a bot runs."""
    backend = db.backend
    target = getattr(backend, "url", None) or backend.path
    if backend.dialect == "postgresql":
        rows = await backend.fetch("SELECT shard_count FROM shard_owners ORDER BY shard LIMIT 1")
        count = int(rows[0][0]) if rows else 1
        shards = Shards(count, tuple(range(count)))
    else:
        shards = Shards(1, (0,))
    lease = ShardLease(target, shards, dialect=backend.dialect, owner=f"storage.copy ({describe_process()})")
    try:
        await lease.acquire()
    except ShardTaken as exc:
        raise CopyError(f"a bot is still running on {_safe(target)}: {exc}; stop every bot process first") from exc
    return lease


def _safe(url: str) -> str:
    """Return a DATABASE_URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, credentials = head.partition("://")
    return f"{scheme}://{credentials.split(':')[0]}@{tail}"


async def copy(source_url: str, target_url: str) -> dict[str, int]:
    """Copy every table in one destination transaction; return how many rows each table got."""
    # No statement timeout: copying a long history is maintenance, not a player waiting.
    source, target = Database(source_url, statement_timeout_ms=0), Database(target_url, statement_timeout_ms=0)
    await source.open()
    try:
        await target.open()
        leases: list[ShardLease] = []
        try:
            leases.append(await hold(source))
            leases.append(await hold(target))
        except BaseException:
            for lease in leases:
                await lease.release()
            await target.close()
            raise
        try:
            if await target.backend.fetch("SELECT 1 FROM games LIMIT 1"):
                raise CopyError("the destination already holds games: copy into a new, empty database")
            counts = dict.fromkeys((table for table, _ in TABLES), 0)
            async with target.backend.transaction() as tx:
                for table, order in TABLES:
                    async for rows in source.backend.stream(f"SELECT * FROM {table} ORDER BY {order}", (), BATCH):
                        columns = list(rows[0].keys())
                        marks = ", ".join("?" for _ in columns)
                        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                        await tx.executemany(sql, [tuple(row[c] for c in columns) for row in rows])
                        counts[table] += len(rows)
                if target.backend.dialect == "postgresql":
                    for table in IDENTITY_TABLES:
                        await tx.fetch(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                            f" FROM {table}"
                        )
            return counts
        finally:
            for lease in leases:
                await lease.release()
            await target.close()
    finally:
        await source.close()


def main(argv: list[str] | None = None) -> int:
    """Run the copy from the command line; print what was copied."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="DATABASE_URL to read (e.g. sqlite:///data/ice_floe.db)")
    parser.add_argument("target", help="DATABASE_URL to fill (e.g. postgresql://user:password@host:5432/db)")
    args = parser.parse_args(argv)
    try:
        counts = asyncio.run(copy(args.source, args.target))
    except (CopyError, ValueError) as exc:
        print(f"Not copied: {exc}", file=sys.stderr)
        return 1
    print("Copied " + ", ".join(f"{n} {table}" for table, n in counts.items()) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main())
