"""Rebuild every skill rating from the stored results, in finishing order (after a fix to the rating rules, say).

    .venv/bin/python -m storage.rerate                 # the database DATABASE_URL (.env) names
    .venv/bin/python -m storage.rerate sqlite:///other.db

Safe while the bot runs: the rebuild is one transaction per server and game, and the same results always give
the same ratings.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from config import Settings
from storage.database import Database
from storage.ratings import rebuild


async def rerate(url: str) -> int:
    """Rebuild the ratings of the database at `url`; return how many finished games were processed."""
    db = Database(url)
    await db.open()
    try:
        return await rebuild(db)
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    """Run the rebuild from the command line and say how many games it went through."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", nargs="?", help="DATABASE_URL (default: the bot's setting)")
    args = parser.parse_args(argv)
    url = args.url or Settings.from_env().database_url
    games = asyncio.run(rerate(url))
    print(f"Rebuilt the ratings from {games} finished game{'s' if games != 1 else ''}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
