"""Measure the board outbox's sweep query at 300,000 saved games: before (every game scanned) and after (index).

Run from the repository root:  .venv/bin/python -m bench.outbox_sweep [--games 300000] [--runs 20] [--postgres]

Fills a fresh database with finished games, seven of them with an unposted board, then times the sweep's
query as it was (a scan of the games table) and as it is (the games_behind partial index, migration 5),
median of --runs, and prints both query plans. --postgres also measures on a throwaway PostgreSQL server
(tests/postgres.py). Say the machine's load (`uptime`) with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time

from storage.database import Database
from storage.rows import GAME_SELECT
from tests.storage.test_outbox_index import fill

BEFORE = "g.status IN (?, ?) AND g.posted_version < g.version AND 1 = 1"
"""The sweep's condition before migration 5, timed with its index dropped (in a transaction rolled back)."""


class Undo(Exception):
    """Raise to roll the measuring transaction back (and the index with it)."""


async def measure(url: str, games: int, runs: int) -> None:
    """Fill one database and print the sweep's timings and plans before and after."""
    db = Database(url, statement_timeout_ms=0)
    await db.open()
    try:
        await fill(db, games)
        if db.backend.dialect == "postgresql":
            await db.backend.execute("VACUUM ANALYZE games")
        after_where, after_args = db.behind_condition()
        before = (f"{GAME_SELECT} WHERE {BEFORE} ORDER BY g.id, s.seat", ("active", "finished"))
        after = (f"{GAME_SELECT} WHERE {after_where} ORDER BY g.id, s.seat", tuple(after_args))
        explain = "EXPLAIN QUERY PLAN" if db.backend.dialect == "sqlite" else "EXPLAIN"
        for name, (sql, args) in (("before", before), ("after", after)):
            try:
                async with db.backend.transaction() as tx:
                    if name == "before":
                        await tx.execute("DROP INDEX games_behind")
                    walls, cpus, found = [], [], 0
                    for _ in range(runs):
                        wall, cpu = time.perf_counter(), time.process_time()
                        found = len({row["id"] for row in await tx.fetch(sql, args)})
                        walls.append(time.perf_counter() - wall)
                        cpus.append(time.process_time() - cpu)
                    plan = [str(row[-1]) for row in await tx.fetch(f"{explain} {sql}", args)]
                    raise Undo
            except Undo:
                pass
            print(
                f"{db.backend.dialect:10} {name:6} {games:,} games, {found} behind:"
                f" median {1000 * statistics.median(walls):7.1f} ms wall,"
                f" {1000 * statistics.median(cpus):6.1f} ms CPU of this process"
            )
            print("    " + "\n    ".join(plan))
    finally:
        await db.close()


async def main(args: argparse.Namespace) -> None:
    """Measure on SQLite, and on PostgreSQL if asked."""
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        await measure(f"sqlite:///{folder}/sweep.db", args.games, args.runs)
    if args.postgres:
        from tests.postgres import start_server

        server = start_server()
        try:
            await measure(await server.new_schema(), args.games, args.runs)
        finally:
            server.stop()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--postgres", action="store_true")
    asyncio.run(main(parser.parse_args()))
