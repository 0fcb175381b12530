"""What one level measured: latency samples, stalls, garbage collection pauses; percentiles."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from typing import Any

from bench.bot_process import Report, StallSampler

ANSWER_TIMEOUT = 30.0


@dataclass
class Samples:
    """Latencies (seconds) and what went wrong during one level."""

    ack: list[float] = field(default_factory=list)
    answer: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    """Moves only: from injection until the channel shows the board the move made."""
    autocomplete: list[float] = field(default_factory=list)
    harness_stall: float = 0.0
    harness_gc: float = 0.0
    """The harness's longest garbage collection pause (it keeps every message and picture it was sent)."""
    harness_cpu: float = 0.0
    late: int = 0
    timeouts: int = 0
    turns: int = 0
    abandoned: int = 0
    refusals: list[str] = field(default_factory=list)
    harness_stacks: list[tuple[float, str]] = field(default_factory=list)
    bot: Report = field(default_factory=Report)


class Refused(Exception):
    """The bot refused a game command (or Discord refused its answer), so that game cannot go on."""


def percentile(values: list[float], fraction: float) -> float:
    """Return the nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def ms(value: float) -> str:
    """Format seconds as milliseconds."""
    return f"{value * 1000:8.1f}"


async def watch_stalls(samples: Samples, interval: float = 0.005, sampler: StallSampler | None = None) -> None:
    """Record the longest time this process's event loop was blocked beyond a short sleep."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        if sampler is not None:
            sampler.beat = time.monotonic()
        await asyncio.sleep(interval)
        if sampler is not None:
            sampler.beat = time.monotonic()
        samples.harness_stall = max(samples.harness_stall, loop.time() - started - interval)


class HarnessGc:
    """Time this process's garbage collections while a level runs."""

    def __init__(self, samples: Samples) -> None:
        self.samples = samples
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        """Note when a collection starts and, when it stops, keep the longest."""
        if phase == "start":
            self.started = time.perf_counter()
        elif self.started:
            self.samples.harness_gc = max(self.samples.harness_gc, time.perf_counter() - self.started)


def no_board(result: Any) -> str:
    """Say which move's board never reached its channel, how far the move got and what its player read."""
    ix = result.interaction
    acked = "never acknowledged" if ix.acked_at is None else f"acknowledged (type {ix.callback_type})"
    answered = "never answered" if ix.answered_at is None else "answered"
    refused = f", Discord refused {ix.rejections}" if ix.rejections else ""
    read = "; ".join(repr(m.content[:120]) for m in result.messages if m.ephemeral)
    return f"{ix.label}: no board within {ANSWER_TIMEOUT:g} s; the move was {acked}, {answered}{refused}" + (
        f"; its player read {read}" if read else ""
    )
