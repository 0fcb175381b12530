"""Measure the event-loop stall of a reminder check and of start-up resume with many saved active games."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine.fish import GAME
from storage.database import Database
from ui.flow import GameFlow
from ui.scheduler import Scheduler

NOW = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


@dataclass
class Census:
    """Say how many seeded games should be reminded and how many wait on a computer player."""

    games: int
    due: int
    bot_turns: int


def seed(path: str, games: int, *, due_every: int = 50, bot_every: int = 10) -> Census:
    """Write `games` active two-player fish games straight into the database file (created by Database.open).

    Every `due_every`-th game has waited 13 hours (a reminder is due); every `bot_every`-th game (not due)
    waits on a computer player in seat 0; the rest waited an hour.
    """
    state = json.dumps(GAME.dump(GAME.new_game(2, {}, 7)))
    fresh, stale = (NOW - timedelta(hours=1)).isoformat(), (NOW - timedelta(hours=13)).isoformat()
    rows, seats = [], []
    due = bots = 0
    for n in range(1, games + 1):
        waited = stale if n % due_every == 0 else fresh
        bot = n % bot_every == 0 and n % due_every != 0
        due += n % due_every == 0
        bots += bot
        rows.append((n, 1, 1000 + n, "fish", "active", 100, "{}", n, state, 1, waited, waited))
        seats.append((n, 0, -1 if bot else 100, "Bot 1 (easy)" if bot else "Ana", "easy" if bot else None))
        seats.append((n, 1, 101, "Bo", None))
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, kind, status, host_id, options, seed, state, version,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.executemany("INSERT INTO seats (game_id, seat, user_id, name, bot_level) VALUES (?, ?, ?, ?, ?)", seats)
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        if "due_at" in columns:  # as the migration does: every active game is looked at once
            conn.execute("UPDATE games SET due_at = 0 WHERE status = 'active'")
    return Census(games, due, bots)


class Channel:
    """Stand in for a channel: record what is sent."""

    def __init__(self, sent: list[str]) -> None:
        self.sent = sent

    async def send(self, content: str, **_: Any) -> None:
        """Record a message."""
        self.sent.append(content)


@dataclass
class StubBot:
    """Stand in for the Discord client: channels record messages, computer turns are only counted."""

    sent: list[str] = field(default_factory=list)

    def get_partial_messageable(self, channel_id: int) -> Channel:
        """Return a recording channel."""
        return Channel(self.sent)


class LagMonitor:
    """Record the longest time the event loop took to come back to a task that sleeps 2 ms.

    Besides the wall-clock lag it records the loop thread's own CPU time over the same gap: on a busy
    shared machine the wall figure also counts time the OS gave to other processes, the CPU figure only
    the work that really held the loop.
    """

    def __init__(self) -> None:
        self.worst = self.worst_cpu = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start, cpu = loop.time(), time.thread_time()
            await asyncio.sleep(0.002)
            self.worst = max(self.worst, loop.time() - start - 0.002)
            self.worst_cpu = max(self.worst_cpu, time.thread_time() - cpu)

    async def measure(self, work: Callable[[], Awaitable[Any]]) -> tuple[float, float, Any]:
        """Run `work` while watching the loop; return (worst lag in ms, worst loop-thread CPU in ms, result)."""
        self.worst = self.worst_cpu = 0.0
        self._task = asyncio.create_task(self._watch())
        await asyncio.sleep(0.01)
        try:
            result = await work()
        finally:
            self._task.cancel()
        return self.worst * 1000, self.worst_cpu * 1000, result


@dataclass
class Figures:
    """Hold one run's worst loop lags (ms) and what the scheduler and start-up did."""

    first_tick: float
    second_tick: float
    resume: float
    first_tick_cpu: float
    second_tick_cpu: float
    resume_cpu: float
    reminders: int
    repeated: int
    scheduled: int
    seconds: float


async def run(games: int, folder: str) -> tuple[Census, Figures]:
    """Seed `games` games, then time a first and a second reminder check and a start-up resume."""
    path = str(Path(folder) / "bench.db")
    db = Database(path, clock=lambda: NOW)
    await db.open()
    census = seed(path, games)
    bot = StubBot()
    flow = GameFlow(bot, db, workers="thread")  # type: ignore[arg-type]
    scheduled: list[int] = []
    flow.bots.schedule = scheduled.append  # type: ignore[method-assign]
    scheduler = Scheduler(flow)
    monitor = LagMonitor()
    start = time.perf_counter()
    try:
        first, first_cpu, _ = await monitor.measure(scheduler.tick)
        reminders = len(bot.sent)
        second, second_cpu, _ = await monitor.measure(scheduler.tick)
        resume, resume_cpu, _ = await monitor.measure(flow.resume)
    finally:
        await db.close()
    repeated = len(bot.sent) - reminders
    figures = Figures(
        first, second, resume, first_cpu, second_cpu, resume_cpu, reminders, repeated, len(scheduled), 0.0
    )
    figures.seconds = time.perf_counter() - start
    return census, figures


def main() -> None:
    """Print the worst loop lag per phase, median of several runs, for each game count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("worst event-loop stall in ms, wall clock (loop-thread CPU), medians")
    print("games  first tick      steady tick    resume         reminders  bot games  seconds")
    for games in args.games:
        results = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as folder:
                results.append(asyncio.run(run(games, folder))[1])

        def med(name: str, results: list[Figures] = results) -> float:
            return statistics.median(getattr(r, name) for r in results)

        phases = "".join(f"{med(p):6.1f} ({med(p + '_cpu'):5.1f})  " for p in ("first_tick", "second_tick", "resume"))
        print(f"{games:5d}  {phases}{results[0].reminders:9d}  {results[0].scheduled:9d}  {med('seconds'):7.1f}")


if __name__ == "__main__":
    main()
