"""Measure hints: a player who follows every hint against the hard computer player at the same search budget.

Two-player games; the hint follower plays ai.hints.hint's suggestion at each decision, the hard player its own
choice with the same iteration budget (each with its own seed, as at a real table). Seats alternate, so each
deal is played from both sides. A tie counts half. Prints the follower's score with a Wilson 95% interval, and
how often the reason says what the move does and tells the two win rates apart.

    .venv/bin/python -m bench.hints --game fish --games 40 --iterations 300
"""

from __future__ import annotations

import argparse
import time

from ai import choose_action
from ai.hints import hint
from bench.ai import wilson
from engine.registry import get

PLAYERS = 2


def play(kind: str, deal: int, follower: int, iterations: int) -> tuple[float, list[str]]:
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
            given = hint(kind, view, seat, names, seed, iterations=iterations)
            action = given["action"]
            reasons.append(given["reason"])
        else:
            action = choose_action(kind, view, seat, "hard", seed + 7, iterations=iterations)
        game.apply(state, seat, action)
        step += 1
    winners = game.outcome(state).winners
    return (1.0 / len(winners) if follower in winners else 0.0), reasons


def main(argv: list[str] | None = None) -> int:
    """Run the matches and print the follower's score, its interval, and what the reasons said."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="fish", choices=["fish", "tank", "flippers"])
    parser.add_argument("--games", type=int, default=40, help="games in all (half from each seat)")
    parser.add_argument("--iterations", type=int, default=300, help="search iterations for both players")
    args = parser.parse_args(argv)
    points, reasons, began = 0.0, [], time.perf_counter()
    for n in range(args.games):
        got, said = play(args.game, 1 + n // 2, n % 2, args.iterations)
        points += got
        reasons += said
    low, high = wilson(points, args.games)
    same = sum("about as often as the next best" in r for r in reasons)
    bare = sum(r.startswith("wins ") for r in reasons)
    print(f"{args.game}, {args.iterations} iterations each, {args.games} games: hint follower scored {points:g}"
          f" ({points / args.games:.1%}, Wilson 95% {low:.1%}-{high:.1%}) against the hard player")
    print(f"reasons: {len(reasons)}; win rates too close to tell apart {same} ({same / max(1, len(reasons)):.0%});"
          f" no effect named {bare} ({bare / max(1, len(reasons)):.0%}); {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
