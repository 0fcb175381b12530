"""Fit how an unfinished Flippers table foretells the final points: self-play games, least squares by progress.

Plays `--games` deals with the hard player at `--seconds` of its virtual clock in every seat and, at the first
play of every turn, records each seat's stash, Food and Leader points as the table stands and the points its
Plus and Minus cards would still move (`ai.flippers_outlook.income`). Each seat's final points are then fitted on
those four by ordinary least squares, one fit per span of the game's progress (`ai.flippers_outlook.progress`),
and printed as weights per stash point (the outlook counts stash points in full). Below, how much of the final
points' variance (r squared) the bot's weights (`FlippersAI.outlook_weights`) and the old ones explain.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ai.flippers import FlippersAI
from ai.flippers_outlook import Weights, income, outlook, progress
from bench.ladder import Budget, play_deal
from engine.flippers.scoring import scores
from engine.flippers.state import PLAY, FlippersState

OLD = Weights()
"""The outlook before the fit: every point as the table stands, half the income, whatever the progress."""


@dataclass
class Row:
    """Hold one turn's first play: the game's progress and every seat's points by kind."""

    progress: float
    stash: list[int]
    food: list[int]
    leader: list[int]
    income: list[float]
    judged: dict[str, list[float]]
    """Every seat's outlook by the weights compared (`WEIGHTS`)."""


@dataclass
class Game:
    """Hold one self-play game: its rows and every seat's final points."""

    rows: list[Row]
    final: list[int]


WEIGHTS = {"the bot's": FlippersAI.outlook_weights, "old": OLD}


def snapshot(state: FlippersState) -> Row:
    """Return the row of a table: each seat's points by kind and its outlook by the compared weights."""
    rows = scores(state)
    return Row(
        progress(state),
        [r["stash"] for r in rows],
        [r["food"] for r in rows],
        [r["leader"] for r in rows],
        income(state),
        {name: outlook(state, weights) for name, weights in WEIGHTS.items()},
    )


def record(players: int, seed: int, seconds: float) -> Game:
    """Play deal `seed` with the hard player in every seat, recording a row at the first play of every turn."""
    rows: list[Row] = []

    def watch(state: FlippersState) -> None:
        if state.phase == PLAY and state.played is None:
            rows.append(snapshot(state))

    budget = Budget(None, 0, seconds)
    state, _times = play_deal("flippers", ["hard"] * players, seed, budget, random.Random(seed), watch)
    return Game(rows, [row["total"] for row in scores(state)])


def least_squares(xs: Sequence[Sequence[float]], ys: Sequence[float]) -> list[float]:
    """Return the weights that minimise the squared error of `xs` times them against `ys` (normal equations)."""
    if not xs or len(xs) <= len(xs[0]):
        raise ValueError("too few rows to fit: it needs more rows than weights")
    k = len(xs[0])
    pairs = list(zip(xs, ys, strict=True))
    matrix = [[sum(x[i] * x[j] for x in xs) for j in range(k)] + [sum(x[i] * y for x, y in pairs)] for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(matrix[r][col]))
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        if abs(matrix[col][col]) < 1e-12:
            raise ValueError("the rows do not tell the weights apart")
        for r in range(k):
            if r != col:
                factor = matrix[r][col] / matrix[col][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
    return [matrix[i][k] / matrix[i][i] for i in range(k)]


@dataclass
class Span:
    """Hold the fit of one span of progress: its bounds, seat-rows and weights per stash point."""

    start: float
    end: float
    samples: int
    food: float
    leader: float
    income: float


def fit(games: Sequence[Game], spans: int) -> list[Span]:
    """Fit each seat's final points on its points by kind, one fit per span of progress that its rows can tell."""
    fitted = []
    for n in range(spans):
        start, end = n / spans, (n + 1) / spans
        xs: list[list[float]] = []
        ys: list[float] = []
        for game in games:
            for row in game.rows:
                if start <= row.progress < end or (n == spans - 1 and row.progress == 1.0):
                    for s, final in enumerate(game.final):
                        xs.append([row.stash[s], row.food[s], row.leader[s], row.income[s], 1.0])
                        ys.append(final)
        try:
            stash, food, leader, recurring, _const = least_squares(xs, ys)
        except ValueError:
            continue  # too few or too alike rows in this span to fit
        fitted.append(Span(start, end, len(ys), food / stash, leader / stash, recurring / stash))
    return fitted


def explained(games: Sequence[Game], name: str) -> float:
    """Return the squared correlation of every seat's outlook by the weights `name` with its final points."""
    pairs = [(row.judged[name][s], final) for g in games for row in g.rows for s, final in enumerate(g.final)]
    n = len(pairs)
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    syy = sum((y - my) ** 2 for _, y in pairs)
    return sxy * sxy / (sxx * syy) if sxx and syy else 0.0


def main() -> None:
    """Parse the options, play the games and print the weights fitted per span and the weights' r squared."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-deal", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=0.2, help="the hard player's virtual seconds per move")
    parser.add_argument("--spans", type=int, default=6, help="spans of progress fitted apart")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    args = parser.parse_args()
    plan = [(args.players, seed, args.seconds) for seed in range(args.first_deal, args.first_deal + args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(record, *zip(*plan, strict=True)))
    else:
        games = [record(*p) for p in plan]
    print(f"{args.games} games, {args.players} players, hard {args.seconds:g} s in every seat")
    print("| progress | seat-rows | Food | Leader | income (Plus and Minus to come) |")
    print("| --- | --- | --- | --- | --- |")
    for span in fit(games, args.spans):
        print(
            f"| {span.start:.2f}-{span.end:.2f} | {span.samples} | {span.food:.2f} | {span.leader:.2f} "
            f"| {span.income:.2f} |"
        )
    for name in WEIGHTS:
        print(f"r squared of the final points, {name} weights: {explained(games, name):.3f}")


if __name__ == "__main__":
    main()
