"""Kill the bot during Flippers set-ups and count the channels left with a stale or missing live board.

Run from the repository root:  .venv/bin/python -m bench.setup_kills [--games 40] [--kill-chance 0.5] [--seed 777]

Games of 2-6 players, dealt from seed 777 and others, are started and set up by slash commands against the real
bot in a child process (tests/e2e/setup_kills.py); before each command the bot may be armed to die at the n-th
request it sends (reaching Discord or not) or after a random delay, then it is restarted. After each restart and
each set-up the channel must show one live board, the newest, at the saved version. It prints the games,
commands, kills and checks, the turn pings left standing, and every problem found.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys

from bench.kill_runs import print_report, run_killed
from tests.e2e.setup_kills import SetupKills


async def soak(args: argparse.Namespace) -> int:
    """Run the set-ups under kills and print the report; return 1 if any channel was wrong."""
    report, seconds = await run_killed(
        "floe-setup-kills-",
        lambda fake, folder: SetupKills(fake, folder, random.Random(args.seed), kill_chance=args.kill_chance),
        lambda run: run.run(args.games),
    )
    print_report(report, seconds)
    return 1 if report.problems else 0


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--kill-chance", type=float, default=0.5, help="chance that a command is armed to kill")
    parser.add_argument("--seed", type=int, default=777)
    sys.exit(asyncio.run(soak(parser.parse_args())))


if __name__ == "__main__":
    main()
