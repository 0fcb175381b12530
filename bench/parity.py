"""Measure what an equal player scores: one level in every seat, each seat's victory share and lead.

At a full table `bench.ladder` reports the first level's lead (its final points less the best other side's)
against the second level in every other seat. That lead is negative even between equals, since one seat is
measured against the best of the rest; this prints the level's lead against itself, the figure to compare with.
The standard error is over games (the seats of one game are not independent).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ai import bots
from bench.ladder import FULL, GAMES, LEVELS, Budget, calibrate, play_deal, side_won
from ui.bots import THINK_BUDGET


@dataclass
class Table:
    """Hold one finished game of equals: every seat's victory share and lead in final points."""

    shares: list[float]
    leads: list[float]


def play(key: str, level: str, players: int, seed: int, budget: Budget) -> Table:
    """Play deal `seed` with `level` in every seat."""
    state, _times = play_deal(key, [level] * players, seed, budget, random.Random(seed * 7919))
    ai = bots()[key]
    estimates = ai.estimate(state)
    return Table(
        [side_won(ai.game, state, s) for s in range(players)],
        [ai.margin(estimates, state, s) for s in range(players)],
    )


def summary(key: str, level: str, players: int, tables: list[Table]) -> str:
    """Return the Markdown row of a seat's mean victory share and lead over `tables`."""
    per_game = [statistics.mean(t.leads) for t in tables]
    spread = statistics.stdev(per_game) / math.sqrt(len(per_game)) if len(per_game) > 1 else 0.0
    shares = [share for t in tables for share in t.shares]
    return (
        f"| {key} | {players} | {level} in every seat | {statistics.mean(shares):.2f} "
        f"| {statistics.mean(per_game):+.2f} ± {spread:.2f} | {len(tables)} |"
    )


def main() -> None:
    """Parse the options, play the games and print a seat's mean victory share and lead as a Markdown row."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAMES, default="flippers")
    parser.add_argument("--players", type=int, help="table size (default: the largest)")
    parser.add_argument("--level", choices=LEVELS, default="ucb")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument(
        "--ref", type=int, help="ref and ucb samples per move (default: the CPU of the bot's hard budget)"
    )
    parser.add_argument("--seconds", type=float, default=THINK_BUDGET, help="hard's virtual seconds per move")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    args = parser.parse_args()
    players = args.players or FULL[args.game]
    budget = Budget(None, 0, args.seconds)
    budget.ref = args.ref or (calibrate(args.game, players, budget) if args.level in ("ref", "ucb") else 0)
    seeds = range(args.first_deal, args.first_deal + args.deals)
    plan = [(args.game, args.level, players, seed, budget) for seed in seeds]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            tables = list(pool.map(play, *zip(*plan, strict=True)))
    else:
        tables = [play(*p) for p in plan]
    print("| game | players | level | a seat's victory share | a seat's lead in points (mean ± s.e.) | games |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(summary(args.game, args.level, players, tables))
    print(f"{args.level}: ref {budget.ref} samples per move, hard {budget.seconds:g} s on its virtual clock")


if __name__ == "__main__":
    main()
