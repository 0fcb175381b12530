"""Check that each shard runs in one process only: leases on PostgreSQL and on a SQLite file."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from storage.database import Database, Shards
from storage.ownership import ShardLease, ShardTaken

ROOT = Path(__file__).resolve().parents[2]
HOLDER = """
import asyncio, sys
from storage.database import Database, Shards
from storage.ownership import ShardLease

async def main():
    lease = ShardLease(sys.argv[1], Shards(2, (1,)), dialect="postgresql", owner="the killed process")
    await lease.acquire()
    print("held", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def migrated(url: str) -> None:
    db = Database(url)
    await db.open()
    await db.close()


async def test_a_second_process_on_a_held_shard_is_refused_and_told_who_holds_it(postgres_url: str) -> None:
    await migrated(postgres_url)
    first = ShardLease(postgres_url, Shards(2, (0,)), dialect="postgresql", owner="host-a pid 1")
    await first.acquire()
    try:
        other = ShardLease(postgres_url, Shards(2, (1,)), dialect="postgresql", owner="host-b pid 2")
        await other.acquire()  # a different shard of the same count is fine
        await other.release()
        second = ShardLease(postgres_url, Shards(2, (0, 1)), dialect="postgresql", owner="host-c pid 3")
        with pytest.raises(ShardTaken, match=r"shard 0 of 2 is already run by host-a pid 1"):
            await second.acquire()
        assert second.held == ()
        mismatched = ShardLease(postgres_url, Shards(4, (3,)), dialect="postgresql", owner="host-d pid 4")
        with pytest.raises(ShardTaken, match=r"SHARD_COUNT=4 disagrees with SHARD_COUNT=2 .*host-a pid 1"):
            await mismatched.acquire()
    finally:
        await first.release()
    # With every process stopped, the shard count may change.
    changed = ShardLease(postgres_url, Shards(4, (3,)), dialect="postgresql", owner="host-d pid 4")
    await changed.acquire()
    assert changed.held == (3,)
    await changed.release()


async def test_a_killed_owners_shard_can_be_taken_over(postgres_url: str) -> None:
    await migrated(postgres_url)
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, postgres_url, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    try:
        assert holder.stdout is not None
        assert (await asyncio.wait_for(holder.stdout.readline(), 30)).strip() == b"held"
        successor = ShardLease(postgres_url, Shards(2, (1,)), dialect="postgresql", owner="successor")
        with pytest.raises(ShardTaken, match="the killed process"):
            await successor.acquire()
    finally:
        holder.send_signal(signal.SIGKILL)
        await holder.wait()
    for _ in range(50):  # PostgreSQL ends the dead client's session (and its locks) as soon as it sees the EOF
        try:
            await successor.acquire()
            break
        except ShardTaken:
            await asyncio.sleep(0.1)
    assert successor.held == (1,)
    await successor.release()


async def test_a_sqlite_database_is_run_by_one_process(tmp_path: Path) -> None:
    path = str(tmp_path / "games.db")
    first = ShardLease(path, Shards(1, (0,)), dialect="sqlite", owner="host-a pid 1")
    await first.acquire()
    second = ShardLease(path, Shards(1, (0,)), dialect="sqlite", owner="host-b pid 2")
    with pytest.raises(ShardTaken, match="already used by host-a pid 1"):
        await second.acquire()
    await first.release()
    await second.acquire()
    await second.release()
