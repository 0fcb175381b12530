"""Copy every saved game, log, result and setting from one database to another (e.g. SQLite to PostgreSQL).

    python -m storage.copy sqlite:///data/ice_floe.db postgresql://floe:secret@db:5432/floe

Stop the bot first. The destination gets the same migrations and must hold no games yet; ids are kept, so
old board buttons keep working, and new games continue after the highest copied id.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from storage.database import Database

# Parents before children (seats, actions and results point at games; a rematch points at an older game).
TABLES = (
    ("games", "id"),
    ("seats", "game_id, seat"),
    ("actions", "id"),
    ("results", "game_id, seat"),
    ("meta", "key"),
    ("guild_settings", "guild_id"),
    ("notify", "user_id"),
    ("game_rating", "game_id"),
    ("rating_settings", "guild_id"),
    ("ratings", "guild_id, kind, player"),
    ("rated_games", "game_id"),
    ("rating_history", "game_id, player"),
    ("takebacks", "id"),
    ("hints", "game_id, seat, version"),
)
IDENTITY_TABLES = ("games", "actions", "takebacks")
BATCH = 1000


class CopyError(Exception):
    """Raise when the copy cannot start (a destination that already holds games)."""


async def copy(source_url: str, target_url: str) -> dict[str, int]:
    """Copy every table in one destination transaction; return how many rows each table got."""
    source, target = Database(source_url), Database(target_url)
    await source.open()
    try:
        await target.open()
        try:
            if await target.backend.fetch("SELECT 1 FROM games LIMIT 1"):
                raise CopyError("the destination already holds games: copy into a new, empty database")
            counts = {}
            async with target.backend.transaction() as tx:
                for table, order in TABLES:
                    rows = await source.backend.fetch(f"SELECT * FROM {table} ORDER BY {order}")
                    counts[table] = len(rows)
                    if not rows:
                        continue
                    columns = list(rows[0].keys())
                    marks = ", ".join("?" for _ in columns)
                    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                    values = [tuple(row[c] for c in columns) for row in rows]
                    for start in range(0, len(values), BATCH):
                        await tx.executemany(sql, values[start : start + BATCH])
                if target.backend.dialect == "postgresql":
                    for table in IDENTITY_TABLES:
                        await tx.fetch(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                            f" FROM {table}"
                        )
            return counts
        finally:
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
