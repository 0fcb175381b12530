"""Run Ice Floe as one shard process against the fake Discord, on the test's clock (started by test_shards).

python -m tests.e2e.shard_process --api URL --gateway URL --cdn URL --token T --database URL --shard N
--shards COUNT --clock FILE. Prints "shard: ready" once connected; runs until killed or sent SIGTERM.
The clock file holds the current time as ISO text, rewritten by the test to move time on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
from datetime import datetime
from pathlib import Path

import discord.asset
import discord.gateway
import discord.http
import yarl

from bot import create_bot
from config import Settings
from storage.ownership import ShardTaken
from ui.limits import LimitSettings

PR_SET_PDEATHSIG = 1


class FileClock:
    """Read the current time from a file the test rewrites (with set_clock, so never half-written)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self) -> datetime:
        """Return the time written in the file."""
        return datetime.fromisoformat(self.path.read_text().strip())


def set_clock(path: Path, moment: datetime) -> None:
    """Move the processes' time to `moment`: write a new file and rename it over the old one, atomically.

    Rewriting the file in place would truncate it first, and a process reading it meanwhile would find no time.
    """
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(moment.isoformat())
    os.replace(fresh, path)


NO_RATES = LimitSettings(per_user=None, per_channel=None)


async def run(args: argparse.Namespace) -> int:
    """Start the bot on its shard, say ready, and run until SIGTERM or until it stops; return its exit status."""
    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    discord.asset.Asset.BASE = args.cdn
    settings = Settings(
        token=args.token,
        database_url=args.database,
        shard_count=args.shards,
        shard_ids=(args.shard,),
        db_pool_size=4,
        answers_dir=str(Path(args.clock).parent),  # the test's folder, not the checkout's data/
        limits=NO_RATES,  # a few players open many games in seconds here; tests/e2e/test_limits.py checks the rates
    )
    bot = create_bot(
        settings, bot_pause=args.pause, bot_budget=0.05, workers="thread", check_interval=0.2, guild_ready_timeout=0.05
    )
    bot.db.clock = FileClock(Path(args.clock))
    bot.hard_stop = True  # as bot.main does: once it decides to stop, the process ends within STOP_WITHIN_S
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    runner = asyncio.create_task(bot.start(args.token), name="shard-bot")
    ready = asyncio.create_task(bot.wait_until_ready())
    await asyncio.wait({runner, ready}, return_when=asyncio.FIRST_COMPLETED)
    if runner.done():
        ready.cancel()
        try:
            await runner
        except ShardTaken as exc:
            print(f"Not started: {exc}.", file=sys.stderr, flush=True)
            sys.exit(3)
        raise RuntimeError("the bot stopped before it was ready")
    print("shard: ready", flush=True)
    await asyncio.wait({runner, asyncio.create_task(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
    await bot.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(runner, timeout=10)
    return bot.exit_code


def main() -> None:
    """Parse the options and run one shard process."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--api", "--gateway", "--cdn", "--token", "--database", "--clock"):
        parser.add_argument(name, required=True)
    parser.add_argument("--shard", type=int, required=True)
    parser.add_argument("--shards", type=int, required=True)
    parser.add_argument("--pause", type=float, default=0.1, help="seconds a computer player waits before moving")
    args = parser.parse_args()
    with contextlib.suppress(OSError, AttributeError):  # end with the test process, never outlive it
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
