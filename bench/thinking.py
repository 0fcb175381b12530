"""Time computer players thinking at several tables at once, in the bot's own pools, with hints asked meanwhile.

Each round asks N tables' hard computer players for a move at the same moment (positions from the largest
tables of every game, in turn) and, with --hints M, M hints too; a move's time runs from the ask to the answer,
as the bot waits for it after its pause. --one-worker measures the pools as they were: one worker for every
computer player and every hint.

    .venv/bin/python -m bench.thinking --tables 3 --tables 10 --hints 20
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import time
from functools import partial
from typing import Any

from bench.ai import positions
from ui.bots import THINK_BUDGET
from ui.hints import think as think_hint
from ui.thinkers import Thinkers, thinkers

LARGEST = {"fish": 4, "tank": 5, "flippers": 6}


def spots(count: int) -> list[tuple[str, dict[str, Any], int]]:
    """Return `count` (game, view, seat) positions, the games in turn, from their largest tables."""
    per_game = {key: positions(key, players, math.ceil(count / len(LARGEST))) for key, players in LARGEST.items()}
    out = []
    for i in range(count):
        key = list(LARGEST)[i % len(LARGEST)]
        view, seat = per_game[key][i // len(LARGEST)]
        out.append((key, view, seat))
    return out


async def timed(job: Any) -> float:
    """Return the seconds from now until `job` (an awaitable) is done."""
    start = time.monotonic()
    await job
    return time.monotonic() - start


def single_choose(kind: str, view: dict[str, Any], seat: int, level: str, seed: int, budget: float) -> dict[str, Any]:
    """Pick a move as the bot did before: `budget` seconds on the wall clock, no deadline (runs in a worker)."""
    from ai import choose_action

    return choose_action(kind, view, seat, level, seed, budget_s=budget)


async def ask(
    pools: Thinkers, single: bool, kind: str, view: dict[str, Any], seat: int, seed: int, budget: float
) -> Any:
    """Ask the pools for a hard move, as the bot does now or (`single`) as it did before."""
    if not single:
        return await pools.choose(kind, view, seat, "hard", seed, budget)
    job = partial(single_choose, kind, view, seat, "hard", seed, budget)
    return await asyncio.get_running_loop().run_in_executor(pools.moves, job)


async def measure(tables: int, rounds: int, hints: int, budget: float, single: bool) -> list[float]:
    """Return every move's seconds from ask to answer over `rounds` rounds of `tables` tables asking at once."""
    pools = Thinkers("process", size=1 if single else None)
    if single:
        pools._hints = pools.moves  # before: hints thought in the computer players' one worker
    await pools.warm_up()
    loop = asyncio.get_running_loop()
    places = spots(tables * rounds)
    hinted = spots(max(hints, 1))
    times: list[float] = []
    try:
        for r in range(rounds):
            asks = []
            for key, view, seat in hinted[:hints]:
                names = [f"P{n}" for n in range(len(view["seats"]))]
                job = partial(think_hint, key, view, seat, names, r, budget)
                asks.append(loop.run_in_executor(pools.hints, job))
            moves = [
                timed(ask(pools, single, key, view, seat, r, budget))
                for key, view, seat in places[r * tables : (r + 1) * tables]
            ]
            times += await asyncio.gather(*moves)
            await asyncio.gather(*asks)
    finally:
        pools.close()
    return times


def main() -> None:
    """Print one line per table count: moves' median, p99 and slowest seconds from ask to answer."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, action="append", help="tables thinking at once (repeatable)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of every table asking at once")
    parser.add_argument("--hints", type=int, default=0, help="hints asked at the start of every round")
    parser.add_argument("--budget", type=float, default=THINK_BUDGET, help="think budget per move (the bot's)")
    parser.add_argument("--single", action="store_true", help="one worker for moves and hints, as before")
    args = parser.parse_args()
    pools = "one worker for moves and hints (before)" if args.single else f"{thinkers()} move workers, hints apart"
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {pools}; budget {args.budget:g} s")
    for tables in args.tables or [3, 10]:
        times = sorted(asyncio.run(measure(tables, args.rounds, args.hints, args.budget, args.single)))
        p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
        print(
            f"{tables} tables at once, {args.hints} hints a round: {len(times)} moves, ask to answer median "
            f"{statistics.median(times):.2f} s, p99 {p99:.2f} s, slowest {times[-1]:.2f} s",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
