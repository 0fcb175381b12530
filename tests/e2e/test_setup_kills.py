"""Kill the real bot during Flippers set-ups (seed 777 and others, 2-6 players): one live board per game."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from tests.e2e.setup_kills import SetupKills
from tests.harness import FakeDiscord


@pytest.mark.skipif(sys.platform != "linux", reason="kills a child process")
async def test_kills_during_flippers_set_ups_leave_one_live_board_showing_the_saved_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    run = SetupKills(fake_discord, tmp_path, random.Random(777))
    try:
        report = await run.run(6)
    finally:
        await run.close()
    assert report.problems == [], report
    assert report.kills >= 6 and report.kills_at_a_request >= 3, report
