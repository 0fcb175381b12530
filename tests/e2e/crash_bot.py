"""Run the real Ice Floe bot against a fake Discord in its own process, to be SIGKILLed by the crash tests.

Started as  python -m tests.e2e.crash_bot --api URL --gateway URL --cdn URL --token T --guild ID --database FILE
[--workers process|thread] [--ack-first] [--seed-file FILE]. With --ack-first every move is acknowledged before
it is saved, as a slow database makes it (its "thinking…" shows first). With --seed-file each new game is
dealt from the seed written in that file when it is opened. It prints "crash_bot: ready <pid>" once the bot is
connected and has caught up with its board outbox, then runs until it is killed. Log records of WARNING and above
go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import sys
from pathlib import Path

from bench.bot_process import die_with_parent, point_at_fake
from bot import create_bot
from config import Settings
from ui import moves
from ui.limits import LimitSettings


async def run(args: argparse.Namespace) -> None:
    """Start the bot, say ready once its outbox is caught up and its workers are warm, and run until killed."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    point_at_fake(args.api, args.gateway, args.cdn)
    if args.ack_first:
        moves.ACK_WITHIN_S = 0.0  # saving never finishes "in time": each move is acknowledged first
    limits = LimitSettings()
    if args.seed_file:
        seeds = Path(args.seed_file)
        random.SystemRandom = lambda: random.Random(int(seeds.read_text()))  # type: ignore[assignment,misc]
        limits = LimitSettings(per_user=None, per_channel=None)  # one host opens game after game
    settings = Settings(
        token=args.token, database_url=f"sqlite:///{args.database}", dev_guild_id=args.guild, limits=limits
    )
    bot = create_bot(
        settings, workers=args.workers, bot_pause=0, bot_budget=0.05, guild_ready_timeout=0.05, check_interval=3600
    )
    runner = asyncio.create_task(bot.start(args.token), name="crash-bot")
    while not bot.is_ready():
        if runner.done():
            await runner
            raise RuntimeError("the bot stopped before it was ready")
        await asyncio.sleep(0.02)
    await bot.flow.outbox.caught_up()
    if bot.warming is not None:  # its first board waits for no cold worker (14.6 s on a busy 2-core machine)
        await bot.warming
    with contextlib.suppress(BrokenPipeError):
        print(f"crash_bot: ready {os.getpid()}", flush=True)
    await runner


def main() -> None:
    """Parse the options and run the bot until it is killed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("api", "gateway", "cdn", "token", "database"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--guild", type=int, required=True)
    parser.add_argument("--workers", default="thread", choices=("thread", "process"))
    parser.add_argument("--ack-first", action="store_true", help="acknowledge every move before saving it")
    parser.add_argument("--seed-file", help="deal each new game from the seed in this file")
    args = parser.parse_args()
    die_with_parent()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
