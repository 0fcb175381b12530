"""Run one level: a fresh fake Discord and bot, N games played at once, the samples they give."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bot_process import StallSampler
from bench.latency.bots import BotInProcess, BotProcess, BotProcesses
from bench.latency.fake import BenchDiscord, StateReader
from bench.latency.players import KINDS, Pacer, Table, seating
from bench.latency.samples import ANSWER_TIMEOUT, HarnessGc, Samples, watch_stalls
from storage.copy import copy
from tests.harness import (
    Driver,
)


async def run_level(
    games: int,
    turns: int,
    think: float,
    *,
    stagger: float = 0.0,
    in_process: bool = False,
    profile: Path | None = None,
    stacks: bool = False,
    kinds: tuple[str, ...] = KINDS,
    saved: Path | None = None,
    postgres: str | None = None,
    processes: int = 2,
) -> Samples:
    """Play `games` games at once against a fresh fake Discord and bot, on a copy of the `saved` database.

    With `postgres` (a DATABASE_URL) the bot runs as `processes` shard processes sharing that database, and
    the games are spread over one server per shard.
    """
    samples = Samples()
    with tempfile.TemporaryDirectory(prefix="ice-floe-bench-") as tmp:
        database = Path(tmp) / "bench.db"
        if saved is not None and postgres:
            await copy(f"sqlite:///{saved}", postgres)
        elif saved is not None:
            shutil.copyfile(saved, database)
        async with BenchDiscord() as fake:
            guilds = [fake.guild]
            if postgres:
                fake.recommended_shards = processes
                guilds = [fake.add_guild(f"bench shard {n}", shard=(n, processes)) for n in range(processes)]
            homes = [guilds[n % len(guilds)] for n in range(games)]
            channels = [fake.add_text_channel(home, f"bench-{n}") for n, home in enumerate(homes)]
            driver = Driver(fake, timeout=ANSWER_TIMEOUT)
            if postgres:
                bot_context: Any = BotProcesses.running(fake, Path(tmp), postgres, processes)
            elif in_process:
                bot_context = BotInProcess.running(fake, Path(tmp), driver)
            else:
                bot_context = BotProcess.running(fake, Path(tmp), profile, stacks)
            reader = StateReader(postgres or str(database))
            async with bot_context as bot, reader:
                tables = []
                for n, (channel, home) in enumerate(zip(channels, homes, strict=True)):
                    kind, seated = seating(n, kinds)
                    players = [driver.user(f"p{n}{chr(97 + k)}", guild=home) for k in range(seated)]
                    pacer = Pacer(random.Random(n), think, stagger)
                    tables.append(Table(fake, driver, channel, players, kind, samples, pacer, reader))
                sampler = StallSampler() if stacks else None
                if sampler is not None:
                    sampler.start()
                    sampler.active = True
                watcher = asyncio.create_task(watch_stalls(samples, sampler=sampler))
                gc_timer = HarnessGc(samples)
                gc.callbacks.append(gc_timer)
                # The harness keeps every message, version and picture: a full collection of that takes 100+ ms
                # at 200 games, a stall that would be counted against the bot. Collect once the level is over.
                gc.freeze()
                gc.disable()
                cpu = time.process_time()
                await bot.begin()
                try:
                    await asyncio.gather(*(table.play(turns) for table in tables))
                finally:
                    samples.harness_cpu = time.process_time() - cpu
                    gc.enable()
                    gc.unfreeze()
                    gc.callbacks.remove(gc_timer)
                    samples.bot = await bot.end()
                    watcher.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await watcher
                    if sampler is not None:
                        sampler.finished.set()
                        samples.harness_stacks = sampler.worst()
            samples.late = sum(1 for p in fake.take_problems() if "allows 3s" in p)
    return samples
