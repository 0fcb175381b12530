"""Measure how well a search spends its budget: the regret of its choice against many worlds of every move.

At fixed positions (seeded random games, turns with many moves), every legal move is played in the same
`--worlds` sampled worlds and played out by the hard player's playout policy (the oracle: ai.halving.world
with every move alive). A searcher's regret at a position is the oracle value of the best move less that of
the move it picks; this prints each searcher's mean regret over positions and seeds. It judges how a budget
is shared among moves, not how good the playouts are (the oracle plays the same playouts), so it is quick
where games are slow: `python -m bench.regret --players 6`.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from ai import bots
from ai.base import action_key
from ai.clock import Clock
from ai.halving import world
from ai.search import search
from bench.ai import positions
from bench.ladder import ucb_choice
from engine.base import Action


def oracle(key: str, view: dict[str, Any], seat: int, actions: list[Action], worlds: int, seed: int) -> list[float]:
    """Return each move's mean reward over `worlds` sampled worlds that every move plays, with the same luck."""
    ai = bots()[key]
    total = [0.0] * len(actions)
    count = [0] * len(actions)
    rng = random.Random(seed)
    clock = Clock(playouts=10**12)
    everyone = list(range(len(actions)))
    for _ in range(worlds):
        world(ai, view, seat, actions, everyone, rng, clock, total, count, first=False)
    return [t / c for t, c in zip(total, count, strict=True)]


def main() -> None:
    """Parse the options, build the oracle at each position and print every searcher's mean regret."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="flippers")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--positions", type=int, default=7, help="positions with at least --moves moves")
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=60, help="oracle worlds per move")
    parser.add_argument("--seconds", type=float, default=1.5, help="the hard search's virtual clock per move")
    parser.add_argument("--ucb", type=int, action="append", help="ucb samples per move (repeatable)")
    parser.add_argument("--seeds", type=int, default=3, help="searches per position and searcher")
    args = parser.parse_args()
    ai = bots()[args.game]
    spots = []
    for i, (view, seat) in enumerate(positions(args.game, args.players, 40 * args.positions)):
        actions = ai.game.legal_actions(ai.determinize(view, seat, random.Random(0)), seat)
        if len(actions) >= args.moves:
            spots.append((view, seat, actions, oracle(args.game, view, seat, actions, args.worlds, 1000 + i)))
        if len(spots) == args.positions:
            break
    searchers = [f"hard {args.seconds:g} s"] + [f"ucb {n}" for n in args.ucb or ()]
    regrets: dict[str, list[float]] = {name: [] for name in searchers}
    for view, seat, actions, values in spots:
        keys = [action_key(a) for a in actions]
        for s in range(args.seeds):
            clock = Clock(seconds=args.seconds, rate=ai.think_rate(view))
            picks = [search(ai, view, seat, actions, random.Random(s), clock)[0].action]
            picks += [ucb_choice(args.game, view, seat, n, s) for n in args.ucb or ()]
            for name, pick in zip(searchers, picks, strict=True):
                regrets[name].append(max(values) - values[keys.index(action_key(pick))])
    print(f"{args.game}, {args.players} players: {len(spots)} positions, oracle {args.worlds} worlds per move")
    for name, values in regrets.items():
        print(f"  {name}: mean regret {statistics.mean(values):.3f} over {len(values)} searches")


if __name__ == "__main__":
    main()
