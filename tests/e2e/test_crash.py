"""Kill the real bot (in its own process) at random points, including between saving a move and posting it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from tests.e2e.crash_run import CrashRun
from tests.harness import FakeDiscord


@pytest.mark.skipif(sys.platform != "linux", reason="reads worker processes from /proc")
async def test_a_killed_bot_loses_no_acknowledged_move_and_posts_every_saved_board(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    run = CrashRun(fake_discord, tmp_path, random.Random(14), games=4)
    try:
        report = await run.run(100, kill_chance=0.1, first_workers="process")
    finally:
        await run.close()
    assert report.problems == []
    assert report.acknowledged >= 100
    assert report.kills >= 4 and report.kills_between_commit_and_post >= 2, report
    assert report.restarts_with_boards_to_post >= 1 and report.boards_posted_after_restart >= 1, report
    assert report.answers_completed_after_restart >= report.kills_between_commit_and_post, report
    assert report.leaked_processes == [], "worker processes outlived the killed bot"
