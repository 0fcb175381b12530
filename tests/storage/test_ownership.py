"""Check that each shard runs in one process only: leases on PostgreSQL and on a SQLite file."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from storage.database import Database, Seat, Shards
from storage.fencing import FenceLost, owner_work
from storage.ownership import ShardLease, ShardTaken
from tests.postgres import PostgresServer
from tests.proxy import FaultyProxy

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


async def prove(db: Database, game_id: int) -> int:
    """Write as owner-only work does (the reminder check, say), in a task of its own."""

    async def owner_write() -> int:
        owner_work()
        return await db.backend.execute("UPDATE games SET due_at = 1 WHERE id = ?", (game_id,))

    return await asyncio.create_task(owner_write())


async def lobby(db: Database) -> int:
    row = await db.create_game(guild_id=None, channel_id=5, kind="fish", host=Seat(0, 1, "A"), options={}, seed=1)
    return row.id


async def test_owner_only_writes_of_a_process_whose_shards_were_taken_over_are_refused_by_the_database(
    postgres_url: str,
) -> None:
    db = Database(postgres_url, shards=Shards(1, (0,)))
    await db.open()
    first = ShardLease(postgres_url, Shards(1, (0,)), dialect="postgresql", owner="first")
    await first.acquire()
    db.backend.fence = first.fence
    game_id = await lobby(db)
    try:
        assert await prove(db, game_id) == 1
        epoch = first.fence.epoch
        assert epoch is not None
        pid = first._conn.get_server_pid()
        await db.backend.fetch("SELECT pg_terminate_backend(?)", (pid,))  # an operator, or a partition, ends it
        for _ in range(50):
            if not first.fence.held:
                break
            await asyncio.sleep(0.1)
        assert not first.fence.held, "the lease's connection ended, yet the token was kept"
        with pytest.raises(FenceLost):
            await prove(db, game_id)  # refused at once, without asking the server

        successor = ShardLease(postgres_url, Shards(1, (0,)), dialect="postgresql", owner="successor")
        successor.grace = 0
        await successor.acquire()
        assert successor.fence.epoch is not None and successor.fence.epoch > epoch
        first.fence.grant(epoch, (0,))  # a process that has not noticed yet: the database refuses it
        with pytest.raises(FenceLost):
            await prove(db, game_id)
        assert not first.fence.held
        assert await db.backend.execute("UPDATE games SET due_at = 2 WHERE id = ?", (game_id,)) == 1  # a player's
        await successor.release()
    finally:
        await first.release()
        await db.close()


async def test_a_successor_waits_before_running_shards_another_process_ran(postgres_url: str) -> None:
    await migrated(postgres_url)
    first = ShardLease(postgres_url, Shards(1, (0,)), dialect="postgresql", owner="first")
    await first.acquire()
    await first.release()
    again = ShardLease(postgres_url, Shards(1, (0,)), dialect="postgresql", owner="first")
    again.grace = 30
    await asyncio.wait_for(again.acquire(), 10)  # its own shards: no wait
    await again.release()
    successor = ShardLease(postgres_url, Shards(1, (0,)), dialect="postgresql", owner="successor")
    successor.grace = 30
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(successor.acquire(), 1)  # another's: it waits for the old owner to have stopped
    await successor.release()


async def test_a_partitioned_owner_retakes_its_shards_from_its_own_dead_session(
    postgres: PostgresServer, postgres_url: str
) -> None:
    await migrated(postgres_url)
    proxy = FaultyProxy("127.0.0.1", postgres.port)
    await proxy.start()
    lease = ShardLease(proxy.url(postgres_url), Shards(1, (0,)), dialect="postgresql", owner="partitioned")
    lost: list[str] = []

    async def on_lost(reason: str) -> None:
        lost.append(reason)

    await lease.acquire()
    epoch = lease.fence.epoch
    keeper = asyncio.create_task(lease.keep(on_lost, every=0.2))
    try:
        proxy.black_hole()
        for _ in range(100):
            if not lease.fence.held:
                break
            await asyncio.sleep(0.1)
        assert not lease.fence.held, "a lease check went unanswered, yet the token was kept"
        await asyncio.sleep(1.0)
        proxy.heal()  # the old session still holds the lock on the server: its FIN was lost in the partition
        for _ in range(150):
            if lease.fence.held or lost:
                break
            await asyncio.sleep(0.1)
        assert lost == [], "the process gave up its shards to its own dead session"
        assert lease.fence.held and lease.fence.epoch is not None and epoch is not None and lease.fence.epoch > epoch
    finally:
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
        await lease.release()
        await proxy.stop()


async def test_a_shard_held_by_a_silent_session_is_taken_over_and_a_live_one_is_not(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await migrated(postgres_url)
    monkeypatch.setattr("storage.ownership.STALE_AFTER_S", 1.5)
    live = ShardLease(postgres_url, Shards(2, (0,)), dialect="postgresql", owner="live")
    silent = ShardLease(postgres_url, Shards(2, (1,)), dialect="postgresql", owner="silent")
    await live.acquire()
    await silent.acquire()  # it never checks its lease again, as a process cut off by a partition
    keeper = asyncio.create_task(live.keep(lambda reason: asyncio.sleep(0), every=0.2))
    try:
        await asyncio.sleep(2.0)
        taker = ShardLease(postgres_url, Shards(2, (0,)), dialect="postgresql", owner="taker")
        with pytest.raises(ShardTaken, match="already run by live"):
            await taker.acquire()
        successor = ShardLease(postgres_url, Shards(2, (1,)), dialect="postgresql", owner="successor")
        successor.grace = 0
        await successor.acquire()
        assert successor.held == (1,)
        await successor.release()
    finally:
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
        await live.release()
        await silent.release()
