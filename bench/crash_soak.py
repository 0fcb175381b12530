"""Soak the bot in crashes: play fish games against the real bot in a child process and SIGKILL it at random.

Run from the repository root:  .venv/bin/python -m bench.crash_soak [--moves 1000] [--kill-chance 0.1]
[--games 6] [--seed 1] [--workers thread|process]

Like tests/e2e/test_crash.py, but as long as asked: the bot is killed after a random delay or exactly when it
sends a new board (the move saved, its board not posted). It prints how many moves were acknowledged, how
many kills (and how many between commit and post), how many restarts owed boards and posted them, worker
processes that outlived a killed bot, and every problem found (an acknowledged move missing from the log, a log
that does not replay to its saved state, a channel whose newest board is not the saved version).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys

from bench.kill_runs import print_report, run_killed
from tests.e2e.crash_run import CrashRun


async def soak(args: argparse.Namespace) -> int:
    """Run the soak and print its report; return 1 if anything was lost."""
    report, seconds = await run_killed(
        "floe-soak-",
        lambda fake, folder: CrashRun(fake, folder, random.Random(args.seed), games=args.games),
        lambda run: run.run(args.moves, kill_chance=args.kill_chance, first_workers=args.workers),
    )
    print_report(report, seconds)
    return 1 if report.problems or report.leaked_processes else 0


def main() -> int:
    """Parse the options and run the soak."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=1000, help="acknowledged moves to play")
    parser.add_argument("--kill-chance", type=float, default=0.1, help="chance that a move kills the bot")
    parser.add_argument("--games", type=int, default=6, help="games played at once, one per channel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", choices=("thread", "process"), default="process", help="the first bot's")
    return asyncio.run(soak(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
