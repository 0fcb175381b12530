"""Measure how well the Flippers sampler guesses which card an opponent kept back at its latest play.

Games are played by the chosen level in every seat; at every turn, for each other seat that held two cards at
its latest play, the kept card (the one still in its hand from then, which only the bench may read) is compared
with the weights the sampler drew it by (`ai/flippers_kept.py`) and with a uniform draw among its unseen cards.
Prints the mean probability given to the true kept card and the mean log-likelihood ratio against uniform
(positive: the inference puts more weight on the truth), with the number of judgements and a 95% interval.
With --cost it prints instead what the sampler costs per world and per decision, inferring and uniform (CPU time).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from ai import bots, choose_action
from ai.flippers import FlippersAI
from ai.flippers_kept import kept_weights
from engine.flippers.cards import team_cards
from engine.registry import get
from tests.ai.helpers import positions

WORLDS = 50
"""Worlds sampled per position when timing the sampler, after the first (which works out the weights)."""


def judge(players: int, level: str, iterations: int, seed: int) -> list[tuple[float, float]]:
    """Play one game and return (inferred, uniform) probabilities of every true kept card, turn by turn."""
    game = get("flippers")
    ai = bots()["flippers"]
    state = game.new_game(players, {}, seed)
    rng = random.Random(seed)
    out = []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        if state.phase == "play" and state.played is None:
            for s, weights in kept_weights(ai, view, seat).items():
                kept = state.hands[s][0]  # the hand is the kept card, then the one drawn after the play
                unseen = [c for c in team_cards(s)[1:] if c not in state.where]
                out.append((weights[kept] / sum(weights.values()), 1 / len(unseen)))
        action = choose_action("flippers", view, seat, level, rng.getrandbits(32), budget_s=1e9, iterations=iterations)
        game.apply(state, seat, action)
    return out


def cost(players: int, teams: bool, games: int) -> str:
    """Return the sampler's CPU cost at positions of random games: the first world of a decision, then each one."""
    game = get("flippers")
    spots = [
        (game.view(state, seat), seat)
        for g in range(games)
        for state, seat in positions("flippers", players, {"teams": teams}, g, every=3)
        if state.phase == "play"
    ]
    parts = []
    for infer in (False, True):
        first = each = 0.0
        for view, seat in spots:
            ai = FlippersAI()
            ai.infer = infer
            rng = random.Random(1)
            start = time.process_time()
            ai.determinize(view, seat, rng)
            first += time.process_time() - start
            start = time.process_time()
            for _ in range(WORLDS):
                ai.determinize(view, seat, rng)
            each += time.process_time() - start
        parts.append(
            f"{'inferring' if infer else 'uniform'}: first world {first / len(spots) * 1000:.1f} ms, "
            f"then {each / len(spots) / WORLDS * 1e6:.0f} us a world"
        )
    return f"flippers {players} players{' Team Up' if teams else ''}, {len(spots)} positions: " + "; ".join(parts)


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", choices=("easy", "hard"), default="hard", help="who plays every seat")
    parser.add_argument("--hard", type=int, default=60, help="hard-search iterations per move")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--teams", action="store_true", help="Team Up (4 or 6 players)")
    parser.add_argument("--cost", action="store_true", help="time the sampler instead, at random games' positions")
    args = parser.parse_args()
    if args.cost:
        print(cost(args.players, args.teams, args.games))
        return
    pairs = [p for g in range(args.games) for p in judge(args.players, args.level, args.hard, g)]
    ratios = [math.log(inferred / uniform) for inferred, uniform in pairs]
    mean = statistics.fmean(ratios)
    half = 1.96 * statistics.stdev(ratios) / math.sqrt(len(ratios)) if len(ratios) > 1 else math.inf
    print(
        f"flippers {args.players} players, {args.level} in every seat"
        f"{f' ({args.hard} iterations)' if args.level == 'hard' else ''}, {args.games} games, "
        f"{len(pairs)} kept cards judged: probability of the true kept card "
        f"{statistics.fmean(p for p, _ in pairs):.3f} inferred vs {statistics.fmean(u for _, u in pairs):.3f} uniform; "
        f"log-likelihood ratio {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] nats per judgement"
    )


if __name__ == "__main__":
    main()
