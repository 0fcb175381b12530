"""The burst benchmark plays real moves against the bot in its own process and measures every one."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

from bench.latency.burst import run_burst
from bench.seed import seed


async def test_a_small_burst_on_saved_games_acknowledges_and_shows_every_move(tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    await asyncio.to_thread(seed, str(saved), 30)
    burst = await run_burst(3, 2, saved=saved)
    assert burst.finished == 6 and len(burst.rounds) == 2
    samples = burst.samples
    assert samples.abandoned == 0 and samples.refusals == [] and samples.bot.errors == 0, samples.bot.error_lines
    assert len(samples.ack) == len(samples.board) == 6
    assert all(math.isfinite(value) and value > 0 for value in samples.ack + samples.board)
