"""Kill a writing process without warning and check that every acknowledged move survived."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from engine.fish import GAME
from storage.database import Database

ROOT = Path(__file__).resolve().parents[2]


def test_a_killed_process_loses_no_acknowledged_move(database_url: str) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_writer", database_url],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acknowledged: dict[int, int] = {}
    deadline = time.monotonic() + 30
    assert writer.stdout is not None
    while len(acknowledged) < 3 and time.monotonic() < deadline:
        game_id, version = map(int, writer.stdout.readline().split())
        acknowledged[game_id] = version
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=10)
    for line in writer.stdout.read().splitlines():
        game_id, version = map(int, line.split())
        acknowledged[game_id] = version
    assert len(acknowledged) >= 3
    asyncio.run(check(database_url, acknowledged))


async def check(database_url: str, acknowledged: dict[int, int]) -> None:
    """Reopen the database and compare it with what the writer acknowledged."""
    db = Database(database_url)
    await db.open()
    for game_id, version in acknowledged.items():
        row = await db.game(game_id)
        assert row is not None and row.version >= version
        log = await db.actions(game_id)
        assert [entry["version"] for entry in log] == list(range(2, row.version + 1))
        GAME.load(row.state)
    await db.close()
