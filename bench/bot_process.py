"""Run the real Ice Floe bot against a fake Discord in its own process, for bench.latency.

Started by bench.latency as  python -m bench.bot_process --api URL --gateway URL --cdn URL --token T
--guild ID --database FILE|URL [--shard N --shards COUNT] [--profile FILE] [--stacks] [--table-port P
--client-id ID --client-secret S --discord-api URL]. It speaks a line protocol: it prints "bench: ready" on
stdout once the bot is connected and idle; on stdin "rss" answers "bench: rss BYTES"; "start" opens the
measured window (event-loop stalls, CPU clocks, garbage collection pauses, optional cProfile and stack
samples) and "stop" (or end of input) closes it, prints "bench: report {json}" and shuts the bot down.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import cProfile
import ctypes
import gc
import json
import logging
import multiprocessing
import os
import pstats
import signal
import sys
import threading
import time
import types
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import discord
import discord.asset
import discord.gateway
import discord.http
import yarl

from bot import create_bot
from config import DEFAULT_POOL_SIZE, Settings

PREFIX = "bench:"
STALL_LIMIT = 0.050
PR_SET_PDEATHSIG = 1
HANDLER_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")


@dataclass
class Report:
    """What the bot process measured during the window, sent back to the benchmark."""

    stall: float = 0.0
    busy_stall: float = 0.0
    """The longest stall counting only the bot process's CPU time meanwhile (not the time the OS ran others)."""
    stalls_over_limit: int = 0
    window: float = 0.0
    cpu: float = 0.0
    loop_cpu: float = 0.0
    idle_cpu: float = 0.0
    """CPU seconds per second the idle bot spends (heartbeats, this watcher), measured before the window."""
    idle_loop_cpu: float = 0.0
    gc_pause: float = 0.0
    """The longest garbage collection during the window, in CPU time of the thread that ran it."""
    gc_total: float = 0.0
    errors: int = 0
    error_lines: list[str] = field(default_factory=list)
    stall_stacks: list[tuple[float, str]] = field(default_factory=list)
    """With --stacks: (ms, stack) of where the event-loop thread was while it was blocked, worst first."""
    round_trips: int = 0
    """Round trips to the database during the window (storage.sql.Trips: every request waited on)."""
    commits: int = 0
    """Transactions committed during the window (each COMMIT, or a write run on its own)."""
    moves: int = 0
    """Moves saved during the window (by players and computer players)."""


class ErrorCounter(logging.Handler):
    """Count ERROR log records (unhandled exceptions in handlers, the bot's own error logs)."""

    def __init__(self, report: Report) -> None:
        super().__init__(level=logging.ERROR)
        self.report = report

    def emit(self, record: logging.LogRecord) -> None:
        """Count one record and keep the first few lines."""
        self.report.errors += 1
        if len(self.report.error_lines) < 5:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f": {record.exc_info[1]!r}"
            self.report.error_lines.append(text[:300])


class ProfilingExecutor(ThreadPoolExecutor):
    """Run asyncio.to_thread work under one cProfile per worker thread when asked."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="asyncio")
        self.profiling = False
        self.profiles: list[cProfile.Profile] = []
        self._local = threading.local()
        self._guard = threading.Lock()

    def _profile(self) -> cProfile.Profile:
        """Return this worker thread's profiler, creating it."""
        profile = getattr(self._local, "profile", None)
        if profile is None:
            profile = self._local.profile = cProfile.Profile(time.thread_time)
            with self._guard:
                self.profiles.append(profile)
        return profile

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Schedule a call, profiled while the profiling window is open."""
        if not self.profiling:
            return super().submit(fn, *args, **kwargs)

        def profiled() -> Any:
            """Run the call with this thread's profiler on."""
            profile = self._profile()
            profile.enable()
            try:
                return fn(*args, **kwargs)
            finally:
                profile.disable()

        return super().submit(profiled)


class GcTimer:
    """Time the garbage collector's pauses (they block the event loop)."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.active = False
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        """Note when a collection starts and, when it stops, how long it took."""
        if phase == "start":
            self.started = time.thread_time()
        elif self.active and self.started:
            pause = time.thread_time() - self.started
            self.report.gc_pause = max(self.report.gc_pause, pause)
            self.report.gc_total += pause


class StallSampler(threading.Thread):
    """Sample the event-loop thread's stack whenever the loop has not ticked for a while."""

    def __init__(self, threshold: float = 0.010, period: float = 0.001) -> None:
        super().__init__(name="bench-stall-sampler", daemon=True)
        self.loop_thread = threading.get_ident()
        self.threshold = threshold
        self.period = period
        self.beat = time.monotonic()
        self.active = False
        self.samples: collections.Counter[str] = collections.Counter()
        self.finished = threading.Event()

    def run(self) -> None:
        """Take a sample every `period` while the loop is late by more than `threshold`."""
        while not self.finished.wait(self.period):
            if self.active and time.monotonic() - self.beat > self.threshold:
                frame = sys._current_frames().get(self.loop_thread)
                if frame is not None:
                    self.samples[describe_stack(frame)] += 1

    def worst(self, count: int = 12) -> list[tuple[float, str]]:
        """Return the stacks seen most, with the blocked milliseconds they stand for."""
        return [(n * self.period * 1000, stack) for stack, n in self.samples.most_common(count)]


def describe_stack(frame: types.FrameType | None, depth: int = 6) -> str:
    """Return the innermost frames of a stack, innermost first, as file:line function."""
    parts = []
    while frame is not None and len(parts) < depth:
        code = frame.f_code
        parts.append(f"{Path(code.co_filename).name}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return " < ".join(parts)


class Window:
    """The measured window: stall watcher, CPU clocks and optional profilers."""

    def __init__(
        self,
        report: Report,
        executor: ProfilingExecutor,
        profile_path: str | None,
        sampler: StallSampler | None,
        bot: Any = None,
    ) -> None:
        self.report = report
        self.bot = bot
        self.counted = (0, 0, 0)
        self.executor = executor
        self.profile_path = profile_path
        self.sampler = sampler
        self.profile: cProfile.Profile | None = None
        self.started = self.cpu_started = self.loop_cpu_started = 0.0

    async def watch_stalls(self, interval: float = 0.005) -> None:
        """Record how long the event loop was blocked beyond a short sleep, and the process's CPU meanwhile."""
        loop = asyncio.get_running_loop()
        report = self.report
        sampler = self.sampler
        while True:
            before, cpu = loop.time(), time.process_time()
            if sampler is not None:
                sampler.beat = time.monotonic()
            await asyncio.sleep(interval)
            if sampler is not None:
                sampler.beat = time.monotonic()
            stall = loop.time() - before - interval
            report.stall = max(report.stall, stall)
            report.busy_stall = max(report.busy_stall, min(stall, time.process_time() - cpu))
            if stall > STALL_LIMIT:
                report.stalls_over_limit += 1

    async def calibrate(self, slice_: float = 0.5, quiet: float = 0.1, most: int = 20) -> None:
        """Wait until start-up work is over (a half second under 10% CPU), and keep that rate as the idle cost."""
        for _ in range(most):
            started, cpu, loop_cpu = time.monotonic(), cpu_time(), time.thread_time()
            await asyncio.sleep(slice_)
            elapsed = time.monotonic() - started
            self.report.idle_cpu = (cpu_time() - cpu) / elapsed
            self.report.idle_loop_cpu = (time.thread_time() - loop_cpu) / elapsed
            if self.report.idle_cpu < quiet:
                return

    def database_work(self) -> tuple[int, int, int]:
        """Return the round trips and commits the bot's database saw so far, and the moves it saved."""
        if self.bot is None:
            return 0, 0, 0
        trips, commits = self.bot.db.backend.trips.snapshot()
        return trips, commits, sum(self.bot.flow.tally.moves.values())

    def start(self) -> None:
        """Open the window: forget earlier stalls, read the clocks, start profiling if asked."""
        self.report.stall = self.report.busy_stall = 0.0
        self.report.stalls_over_limit = 0
        self.counted = self.database_work()
        self.started = time.monotonic()
        self.cpu_started = cpu_time()
        self.loop_cpu_started = time.thread_time()
        if self.sampler is not None:
            self.sampler.samples.clear()
            self.sampler.active = True
        if self.profile_path:
            self.executor.profiling = True
            self.profile = cProfile.Profile(time.thread_time)
            self.profile.enable()

    async def stop(self) -> None:
        """Let running handlers finish (up to 2 s), then close the window and fill in the report."""
        for _ in range(200):
            if not handler_tasks():
                break
            await asyncio.sleep(0.01)
        if self.profile is not None:
            self.profile.disable()
            self.executor.profiling = False
        self.report.window = time.monotonic() - self.started
        trips, commits, moves = self.database_work()
        self.report.round_trips = trips - self.counted[0]
        self.report.commits = commits - self.counted[1]
        self.report.moves = moves - self.counted[2]
        self.report.cpu = cpu_time() - self.cpu_started
        self.report.loop_cpu = time.thread_time() - self.loop_cpu_started
        if self.sampler is not None:
            self.sampler.active = False
            self.report.stall_stacks = self.sampler.worst()
        if self.profile is not None and self.profile_path:
            self.profile.dump_stats(self.profile_path)
            workers = [p for p in self.executor.profiles if p.getstats()]
            if workers:
                stats = pstats.Stats(workers[0])
                for extra in workers[1:]:
                    stats.add(extra)
                stats.dump_stats(f"{self.profile_path}.threads")


def cpu_time() -> float:
    """Return the CPU seconds of this process and of its live child processes (render or AI pools)."""
    total = time.process_time()
    ticks = os.sysconf("SC_CLK_TCK")
    for child in multiprocessing.active_children():
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def handler_tasks() -> list[asyncio.Task[Any]]:
    """Return the bot's running interaction handler tasks."""
    return [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(HANDLER_TASK_PREFIXES)]


def point_at_fake(api: str, gateway: str, cdn: str) -> None:
    """Point discord.py's REST base, default gateway and CDN at the fake Discord, as FakeDiscord.install does."""
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    discord.asset.Asset.BASE = cdn


def say(line: str) -> None:
    """Write one protocol line to the benchmark (gone already if it was interrupted)."""
    with contextlib.suppress(BrokenPipeError):
        sys.stdout.write(f"{PREFIX} {line}\n")
        sys.stdout.flush()


async def run(args: argparse.Namespace) -> None:
    """Start the bot, answer the benchmark's start and stop, report and shut down."""
    report = Report()
    logging.getLogger().setLevel(logging.ERROR)
    logging.getLogger().addHandler(ErrorCounter(report))
    loop = asyncio.get_running_loop()
    executor = ProfilingExecutor()
    loop.set_default_executor(executor)
    point_at_fake(args.api, args.gateway, args.cdn)
    url = args.database if "://" in args.database else f"sqlite:///{args.database}"
    shards = {"shard_count": args.shards, "shard_ids": (args.shard,)} if args.shards else {}
    table: dict[str, Any] = {}
    if args.table_port:
        table = {
            "table_port": args.table_port,
            "discord_client_id": args.client_id,
            "discord_client_secret": args.client_secret,
            "discord_api": args.discord_api,
        }
    pool = int(os.environ.get("DB_POOL_SIZE") or DEFAULT_POOL_SIZE)  # the operator's setting, as bot.main reads it
    settings = Settings(
        token=args.token, database_url=url, dev_guild_id=args.guild or None, db_pool_size=pool, **shards, **table
    )
    bot = create_bot(settings, guild_ready_timeout=0.05)
    runner = asyncio.create_task(bot.start(args.token), name="bench-bot")
    ready = asyncio.create_task(bot.wait_until_ready())
    await asyncio.wait({runner, ready}, return_when=asyncio.FIRST_COMPLETED)
    if runner.done():
        ready.cancel()
        await runner
        raise RuntimeError("the bot stopped before it was ready")
    try:
        await measure(report, executor, args, bot)
    finally:
        await bot.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(runner, timeout=10)


async def measure(report: Report, executor: ProfilingExecutor, args: argparse.Namespace, bot: Any = None) -> None:
    """Say ready once the bot is idle, measure between "start" and "stop", then send the report."""
    gc_timer = GcTimer(report)
    gc.callbacks.append(gc_timer)
    sampler = StallSampler() if args.stacks else None
    if sampler is not None:
        sampler.start()
    window = Window(report, executor, args.profile, sampler, bot)
    watcher = asyncio.create_task(window.watch_stalls(), name="bench-stall-watcher")
    warming = getattr(bot, "warming", None)
    if warming is not None:
        await warming  # every render and thinking worker started: a busy machine may take a minute over it
    await window.calibrate()
    say("ready")
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    started = False
    while line := (await reader.readline()).decode().strip():
        if line == "start" and not started:
            started = True
            gc_timer.active = True
            window.start()
        elif line == "rss":
            say(f"rss {resident_bytes()}")
        elif line == "stop":
            break
    if started:
        await window.stop()
        gc_timer.active = False
    watcher.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watcher
    if sampler is not None:
        sampler.finished.set()
    say("report " + json.dumps(asdict(report)))


def resident_bytes() -> int:
    """Return this process's resident memory (Linux), after a full garbage collection."""
    gc.collect()
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def die_with_parent() -> None:
    """Ask Linux to end this process when the benchmark that started it dies (no orphan bot left running)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def main() -> None:
    """Parse the options and run the bot until the benchmark stops it."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", required=True, help="the fake's REST root (discord.http.Route.BASE)")
    parser.add_argument("--gateway", required=True, help="the fake's gateway URL (DEFAULT_GATEWAY)")
    parser.add_argument("--cdn", required=True, help="the fake's HTTP root (discord.asset.Asset.BASE)")
    parser.add_argument("--token", required=True)
    parser.add_argument("--guild", type=int, required=True, help="the guild to sync commands to (0: globally)")
    parser.add_argument("--database", required=True, help="SQLite file or DATABASE_URL")
    parser.add_argument("--shard", type=int, default=0, help="with --shards: the shard this process runs")
    parser.add_argument("--shards", type=int, default=0, help="the total shard count (0: not sharded)")
    parser.add_argument(
        "--profile", help="write cProfile stats (CPU time) of the window here (to_thread workers: FILE.threads)"
    )
    parser.add_argument("--stacks", action="store_true", help="sample the loop thread's stack while it is blocked")
    parser.add_argument("--table-port", type=int, default=0, help="serve the table on this port (0: no table)")
    parser.add_argument("--client-id", default="", help="with --table-port: the application's client ID")
    parser.add_argument("--client-secret", default="", help="with --table-port: the application's client secret")
    parser.add_argument("--discord-api", default="", help="with --table-port: where OAuth2 codes are exchanged")
    args = parser.parse_args()
    die_with_parent()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
