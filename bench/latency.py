"""Measure Ice Floe's answer latency with 1, 10 and 50 concurrent Hey, That's My Fish! games.

Run from the repository root:  .venv/bin/python -m bench.latency [--levels 1,10,50] [--turns 12]

The bot (create_bot, real discord.py) talks to the fake Discord of tests/harness on 127.0.0.1; the fake,
the simulated players and the bot share one event loop, as the bot's handlers share it in production.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import random
import re
import statistics
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from bot import create_bot
from config import Settings
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult

T = TypeVar("T")
TURN_PING = re.compile(r"<@(\d+)>, it's your turn\.")


@dataclass
class Samples:
    """Latencies (seconds) and the longest event-loop stall seen during one level."""

    ack: list[float] = field(default_factory=list)
    answer: list[float] = field(default_factory=list)
    autocomplete: list[float] = field(default_factory=list)
    stall: float = 0.0
    late: int = 0
    errors: int = 0
    turns: int = 0
    abandoned: int = 0
    refusals: list[str] = field(default_factory=list)


def percentile(values: list[float], fraction: float) -> float:
    """Return the nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def ms(value: float) -> str:
    """Format seconds as milliseconds."""
    return f"{value * 1000:8.1f}"


async def watch_stalls(samples: Samples, interval: float = 0.005) -> None:
    """Record the longest time the event loop was blocked beyond a short sleep."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(interval)
        samples.stall = max(samples.stall, loop.time() - started - interval)


class Refused(Exception):
    """The bot answered a game command with a private refusal, so that game cannot go on."""


async def command(samples: Samples, result: InteractionResult) -> FakeMessage:
    """Time a slash command from injection to its acknowledgement and to the answer the user sees."""
    loop = asyncio.get_running_loop()
    sent = loop.time()
    await result.acked()
    samples.ack.append(loop.time() - sent)
    await result.answered()
    samples.answer.append(loop.time() - sent)
    if result.message.ephemeral:
        raise Refused(f"{result.interaction.label}: {result.message.content}")
    return result.message


async def timed(samples: Samples, work: Awaitable[T]) -> T:
    """Time an autocomplete request."""
    loop = asyncio.get_running_loop()
    sent = loop.time()
    value = await work
    samples.autocomplete.append(loop.time() - sent)
    return value


async def play(
    driver: Driver, channel: FakeChannel, players: list[FakeUser], turns: int, samples: Samples, seed: int
) -> None:
    """Open, start and play one two-player game for `turns` actions; count it abandoned if refused."""
    try:
        await play_turns(driver, channel, players, turns, samples, random.Random(seed))
    except Refused as refusal:
        samples.abandoned += 1
        samples.refusals.append(str(refusal))


async def play_turns(
    driver: Driver,
    channel: FakeChannel,
    players: list[FakeUser],
    turns: int,
    samples: Samples,
    rng: random.Random,
) -> None:
    """Open, start and play one two-player game for `turns` actions, choosing from autocomplete."""
    host, guest = players
    await command(samples, driver.slash(host, "/game new game:fish", channel=channel))
    await command(samples, driver.slash(guest, "/game join", channel=channel))
    board = await command(samples, driver.slash(host, "/game start", channel=channel))
    for _ in range(turns):
        if "**Final standings**" in board.content:
            return
        ping = TURN_PING.search(board.content)
        assert ping, board.content
        player = next(p for p in players if p.id == int(ping.group(1)))
        if "places a penguin" in board.content:
            tiles = await timed(samples, driver.autocomplete(player, "/fish place tile:", channel=channel))
            action = f"/fish place tile:{rng.choice(tiles)['value']}"
        else:
            starts = await timed(samples, driver.autocomplete(player, "/fish move from:", channel=channel))
            start = rng.choice(starts)["value"]
            typed = f"/fish move from:{start} to:"
            ends = await timed(samples, driver.autocomplete(player, typed, channel=channel))
            action = f"{typed}{rng.choice(ends)['value']}"
        board = await command(samples, driver.slash(player, action, channel=channel))
        samples.turns += 1


async def run_level(games: int, turns: int) -> Samples:
    """Play `games` games at once against a fresh fake Discord, bot and database."""
    samples = Samples()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            channels = [fake.add_text_channel(fake.guild, f"bench-{n}") for n in range(games)]
            driver = Driver(fake, timeout=300)
            driver.capture_errors()
            settings = Settings(
                token=fake.token,
                database_url=f"sqlite:///{Path(tmp) / 'bench.db'}",
                dev_guild_id=fake.guild.id,
            )
            await driver.start_bot(create_bot(settings, guild_ready_timeout=0.05))
            pairs = [[driver.user(f"p{n}a"), driver.user(f"p{n}b")] for n in range(games)]
            watcher = asyncio.create_task(watch_stalls(samples))
            try:
                await asyncio.gather(
                    *(
                        play(driver, ch, pair, turns, samples, n)
                        for n, (ch, pair) in enumerate(zip(channels, pairs, strict=True))
                    )
                )
            finally:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
                await driver.stop_all()
                driver.release_errors()
            samples.late = sum(1 for p in fake.take_problems() if "allows 3s" in p)
            samples.errors = len(driver.take_bot_errors())
    return samples


def figures(values: list[float]) -> str:
    """Format the median and p99 of some latencies."""
    if not values:
        return f"{'-':>8} {'-':>8}"
    return f"{ms(statistics.median(values))} {ms(percentile(values, 0.99))}"


def report(games: int, samples: Samples, seconds: float) -> str:
    """Format one level as a table row."""
    return (
        f"{games:5d} {len(samples.answer):6d} {samples.turns:6d}"
        f" {figures(samples.ack)} {figures(samples.answer)} {figures(samples.autocomplete)}"
        f" {ms(samples.stall)} {samples.late:5d} {samples.errors:6d} {samples.abandoned:9d} {seconds:7.1f}"
    )


async def main() -> None:
    """Run every level and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--levels", default="1,10,50", help="numbers of concurrent games (default 1,10,50)")
    parser.add_argument(
        "--turns", type=int, default=12, help="actions per game after /game start (default 12)"
    )
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.ERROR)
    print("Ice Floe latency: slash command injected -> acknowledged (ack) / board or reply shown (answer)")
    print(f"{args.turns} actions per 2-player game after the lobby; times in ms; stall = longest loop block")
    print(
        "games   cmds  turns   ack med   ack p99   ans med   ans p99    ac med    ac p99  max stall  late"
        " errors abandoned  wall s"
    )
    refusals: list[str] = []
    for games in (int(level) for level in args.levels.split(",")):
        started = time.monotonic()
        samples = await run_level(games, args.turns)
        print(report(games, samples, time.monotonic() - started), flush=True)
        refusals.extend(f"  {games} games: {text}" for text in dict.fromkeys(samples.refusals))
    print("late = acknowledgements Discord would refuse (after 3 s); errors = ERROR records the bot logged;")
    print("abandoned = games stopped because the bot refused a command (first refusals below)")
    for line in refusals[:10]:
        print(line)


if __name__ == "__main__":
    asyncio.run(main())
