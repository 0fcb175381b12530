"""Measure hints: a player who follows every hint against the hard computer player at the same search budget.

Two-player games; the hint follower plays ai.hints.hint's suggestion at each decision, the hard player its own
choice with the same budget on the game's virtual clock (ai/clock.py: the machine's load changes no result), or
the same number of search iterations with --iterations. Each player has its own seeds, as at a real table. Each
deal is played twice, the follower in either seat. A tie counts half. Prints the follower's score with a Wilson
95% interval, and how often the reason says what the move does and tells the two win rates apart.

    nice -n 10 .venv/bin/python -m bench.hints --game all --games 60 --budget 0.3 --jobs 2
"""

from __future__ import annotations

import argparse
import re
import time
from concurrent.futures import ProcessPoolExecutor

from ai import choose_action
from ai.hints import hint
from bench.ai import wilson
from engine.registry import get

PLAYERS = 2
GAMES = ("fish", "tank", "flippers")
SAME = re.compile(r"goes from (\d+) to \1 points?")
"""A reason that says nothing: "your expected score goes from 7 to 7 points"."""


def play(kind: str, deal: int, follower: int, budget: float, iterations: int | None) -> tuple[float, list[str]]:
    """Play one game; return the follower's points (1 win, 0.5 shared, 0 loss) and the reasons it was given."""
    game = get(kind)
    state = game.new_game(PLAYERS, {}, deal)
    names = ["follower" if s == follower else "hard" for s in range(PLAYERS)]
    reasons = []
    step = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        seed = deal * 100_003 + step
        if seat == follower:
            given = hint(kind, view, seat, names, seed, budget_s=budget, iterations=iterations, virtual=True)
            action = given["action"]
            reasons.append(given["reason"])
        else:
            action = choose_action(kind, view, seat, "hard", seed + 7, budget, iterations=iterations, virtual=True)
        game.apply(state, seat, action)
        step += 1
    winners = game.outcome(state).winners
    return (1.0 / len(winners) if follower in winners else 0.0), reasons


def measure(kind: str, games: int, budget: float, iterations: int | None, jobs: int) -> None:
    """Play `games` games of one kind (deal 1 + n // 2, the follower in seat n % 2) and print the figures."""
    began = time.perf_counter()
    args = [(kind, 1 + n // 2, n % 2, budget, iterations) for n in range(games)]
    played = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for (_, deal, seat, _, _), (got, said) in zip(args, pool.map(play, *zip(*args, strict=True)), strict=True):
            played.append((got, said))
            so_far = sum(p for p, _ in played)
            print(f"  {kind} deal {deal}, follower in seat {seat}: {got:g} (so far {so_far:g}/{len(played)})",
                  flush=True)
    points = sum(p for p, _ in played)
    reasons = [r for _, said in played for r in said]
    low, high = wilson(points, games)
    close = sum("about as often as the next best" in r for r in reasons)
    bare = sum(r.startswith("wins ") for r in reasons)
    same = sum(bool(SAME.search(r)) for r in reasons)
    think = f"{iterations} iterations" if iterations is not None else f"{budget:g} s of virtual clock"
    share = max(1, len(reasons))
    print(f"{kind}, {think} each, {games} games: hint follower scored {points:g} ({points / games:.1%},"
          f" Wilson 95% {low:.1%}-{high:.1%}) against the hard player")
    print(f"  reasons: {len(reasons)}; win rates too close to tell apart {close} ({close / share:.0%});"
          f" no effect named {bare} ({bare / share:.0%}); 'goes from X to X' {same};"
          f" {time.perf_counter() - began:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the matches of each game asked for and print the follower's score, its interval and the reasons."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="fish", choices=[*GAMES, "all"])
    parser.add_argument("--games", type=int, default=40, help="games per game (half from each seat)")
    parser.add_argument("--budget", type=float, default=0.3, help="virtual-clock seconds per decision, both players")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per decision instead")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args(argv)
    for kind in GAMES if args.game == "all" else (args.game,):
        measure(kind, args.games, args.budget, args.iterations, args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
