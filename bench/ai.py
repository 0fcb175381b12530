"""Measure the bots: win rates of seeded matches (Wilson 95% intervals) and time per move."""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ai import bots, choose_action, legal_from_view
from ai.clock import Clock, now
from ai.search import search
from engine.registry import get
from ui.bots import THINK_BUDGET
from ui.thinkers import DEADLINE_SLACK, choose

GAMES = ("fish", "tank", "flippers")
PAIRINGS = ("hard-easy", "easy-random")


@dataclass
class Match:
    """Hold one finished match: the first level's result and each level's move times."""

    result: float
    """1 for a win of the first level, 1/k for a victory shared by k seats, 0 for a loss."""
    times: dict[str, list[float]] = field(default_factory=dict)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (centre - spread) / denominator, (centre + spread) / denominator


def play(key: str, levels: tuple[str, str], players: int, seed: int, budget: float, iterations: int | None) -> Match:
    """Play one match: levels[0] sits in seat seed % players, levels[1] in every other seat."""
    game = get(key)
    state = game.new_game(players, {}, seed)
    first = seed % players
    level_of = {seat: levels[0] if seat == first else levels[1] for seat in range(players)}
    rng = random.Random(seed)
    times: dict[str, list[float]] = {level: [] for level in levels}
    move = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        level = level_of[seat]
        if level == "random":
            action = rng.choice(game.legal_actions(state, seat))
        else:
            start = time.perf_counter()
            view = game.view(state, seat)
            action = choose_action(
                key, view, seat, level, seed * 1000 + move, budget, iterations=iterations, virtual=True
            )
            times[level].append(time.perf_counter() - start)
        game.apply(state, seat, action)
        move += 1
    winners = game.outcome(state).winners
    result = 1 / len(winners) if first in winners else 0.0
    return Match(result, times)


def run(
    key: str, pairing: str, players: int, games: int, budget: float, iterations: int | None, jobs: int, seed: int
) -> None:
    """Play `games` matches of one pairing and print a line of figures."""
    levels = tuple(pairing.split("-"))
    assert len(levels) == 2
    args = [(key, levels, players, seed + i, budget, iterations) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            matches = list(pool.map(play, *zip(*args, strict=True)))
    else:
        matches = [play(*a) for a in args]
    wins = sum(1 for m in matches if m.result == 1.0)
    draws = sum(1 for m in matches if 0 < m.result < 1)
    points = sum(m.result for m in matches)
    low, high = wilson(points, games)
    timing = []
    for level in levels:
        samples = [t for m in matches for t in m.times.get(level, [])]
        if samples:
            timing.append(f"{level} {statistics.median(samples) * 1000:.0f}/{max(samples) * 1000:.0f} ms (median/max)")
    print(
        f"{key:9} {pairing:12} {levels[0]} scores {points / games:6.1%} [{low:.0%}, {high:.0%}]"
        f"  W/D/L {wins}/{draws}/{games - wins - draws}  " + "  ".join(timing),
        flush=True,
    )


def positions(key: str, players: int, count: int) -> list[tuple[dict[str, Any], int]]:
    """Return (view, seat) at every 9th turn of seeded random games, from the opening to the end."""
    game = get(key)
    out: list[tuple[dict[str, Any], int]] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = game.new_game(players, {}, seed)
        turn = 0
        while not game.is_over(state) and len(out) < count:
            seat = game.to_act(state)[0]
            if turn % 9 == 4:
                out.append((game.view(state, seat), seat))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            turn += 1
        seed += 1
    return out


def think_speed(key: str, players: int, iterations: int, count: int = 12, runs: int = 3) -> None:
    """Print the hard player's search iterations per CPU second on fixed positions, median of `runs`."""
    spots = positions(key, players, count)
    rates = []
    for _ in range(runs):
        start = time.process_time()
        for i, (view, seat) in enumerate(spots):
            choose_action(key, view, seat, "hard", i, budget_s=1e9, iterations=iterations)
        rates.append(count * iterations / (time.process_time() - start))
    print(
        f"{key:9} {players} players: {statistics.median(rates):,.0f} hard-search iterations per CPU second "
        f"({count} positions x {iterations} iterations, median of {runs}: {min(rates):,.0f}-{max(rates):,.0f})",
        flush=True,
    )


def busy_worker(key: str, count: int, budget: float) -> list[float]:
    """Return the wall seconds of `count` hard decisions of one game, 2 players and the largest table in turn.

    Each thinks as in the bot: `budget` seconds of its virtual clock, stopped at the bot's deadline.
    """
    largest = {"fish": 4, "tank": 5, "flippers": 6}[key]
    spots = positions(key, 2, count // 2) + positions(key, largest, count - count // 2)
    times = []
    for i, (view, seat) in enumerate(spots):
        start = time.perf_counter()
        choose(key, view, seat, "hard", i, budget, now() + budget + DEADLINE_SLACK)
        times.append(time.perf_counter() - start)
    return times


def think_rates(key: str, players: int, playouts: int = 150, count: int = 12) -> None:
    """Print the engine actions the hard search applies per CPU second at `count` positions: its virtual clock's rate.

    The median is what `think_rates` in the game's ai module should say (measured on a quiet core).
    """
    ai = bots()[key]
    rates = []
    for i, (view, seat) in enumerate(positions(key, players, count)):
        rng = random.Random(i)
        actions = legal_from_view(ai, view, seat, rng)
        if len(actions) < 2:
            continue
        clock = Clock(playouts=playouts)
        start = time.process_time()
        search(ai, view, seat, actions, rng, clock)
        rates.append(clock.work / (time.process_time() - start))
    rates.sort()
    deployed = ai.think_rate({"seats": [0] * players})
    print(
        f"{key:9} {players} players: {statistics.median(rates):,.0f} actions per CPU second (median of {len(rates)}, "
        f"{rates[0]:,.0f}-{rates[-1]:,.0f}); the game's think_rates says {deployed:,.0f}",
        flush=True,
    )


def busy(count: int, budget: float) -> None:
    """Print the hard player's decision times with one worker per game thinking at once, as in the bot."""
    with ProcessPoolExecutor(len(GAMES)) as pool:
        results = list(pool.map(busy_worker, GAMES, [count] * len(GAMES), [budget] * len(GAMES)))
    every = sorted(t for times in results for t in times)
    for key, times in [*zip(GAMES, results, strict=True), ("all", every)]:
        times = sorted(times)
        p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
        print(
            f"{key:9} {len(times)} decisions of {budget:g} s: median {statistics.median(times):.2f} s, "
            f"p99 {p99:.2f} s, max {times[-1]:.2f} s",
            flush=True,
        )


def main() -> None:
    """Parse the options and print one line per game and pairing."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="matches per game and pairing (seats rotate)")
    parser.add_argument("--players", type=int, default=2, help="seats per match: the first level plays one of them")
    parser.add_argument(
        "--budget",
        type=float,
        default=THINK_BUDGET,
        help=f"seconds per hard move (default {THINK_BUDGET:g}: the bot's)",
    )
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per hard move (no clock)")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    parser.add_argument("--pairing", choices=PAIRINGS, action="append", help="only this pairing (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="matches played in parallel processes")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match")
    parser.add_argument(
        "--think", type=int, metavar="N", help="only time the hard search: N iterations on 12 fixed positions per game"
    )
    parser.add_argument(
        "--busy", type=int, metavar="N", help="only time N hard decisions per game, all three games at once"
    )
    parser.add_argument(
        "--rate", action="store_true", help="only measure each game's virtual clock rate at every table size"
    )
    args = parser.parse_args()
    if args.rate:
        for key in args.game or GAMES:
            game = get(key)
            for players in range(game.min_players, game.max_players + 1):
                think_rates(key, players)
        return
    if args.busy:
        print(f"load average {os.getloadavg()[0]:.1f} at the start")
        busy(args.busy, args.budget)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
        return
    if args.think:
        from bench.fish import calibration

        print(f"machine: sum(range(1000)) takes {calibration():.1f} µs here")
        for key in args.game or GAMES:
            think_speed(key, args.players, args.think)
        return
    budget = f"{args.iterations} iterations" if args.iterations else f"{args.budget:g} s"
    print(
        f"{args.games} {args.players}-player matches per line, hard search {budget} per move; "
        "a victory shared by k seats counts 1/k; the first level plays one seat, the second level every other seat"
    )
    for key in args.game or GAMES:
        for pairing in args.pairing or PAIRINGS:
            run(key, pairing, args.players, args.games, args.budget, args.iterations, args.jobs, args.seed)


if __name__ == "__main__":
    main()
