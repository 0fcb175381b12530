"""Rank the computer players: every level against every other and against an equal-time flat Monte Carlo player.

Levels: random (uniform legal moves), greedy (the move whose position the easy score likes best, one move
ahead, no randomness but ties), easy, hard (the bot's), and ref, a determinized flat Monte Carlo player
that lives only here: for each of its samples it deals the hidden cards from its own view (with the bot's
sampler, so both know the same things), tries the next root action in turn and plays the game out with
uniformly random moves; it picks the action with the best victory share. ucb is the same player spending its
samples by UCB1 (more on the promising root actions) and picking the most sampled. Budgets never read the wall clock, so
the machine's load does not change a result: the hard player thinks as deployed (--deployed: the bot's budget
on its game's virtual clock, ai/clock.py; --seconds S: S seconds of it) or a given number of iterations
(--hard), and ref gets as many samples as take the same CPU time, measured on fixed positions when the run
starts (or given with --ref).

At 2 players every deal is played twice, the first level in each seat; at a full table the first level takes
one seat (rotating with the deal, or every seat in turn with --every-seat) and the second level all the
others. A victory shared by k seats counts 1/k.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from ai import bots, choose_action
from ai.base import actor
from ai.easy import score_actions
from ai.flippers import FlippersAI, clone
from bench.ai import positions, wilson
from engine.base import Action
from engine.flippers.state import FlippersState
from engine.registry import get
from ui.bots import THINK_BUDGET

GAMES = ("fish", "tank", "flippers")
LEVELS = ("random", "greedy", "easy", "hard", "ref", "ucb")
STRONGEST_FIRST = ("hard", "ucb", "ref", "easy", "greedy", "random")
"""Pairing order: at a full table the first level takes one seat against the second level in all the others."""
FULL = {"fish": 4, "tank": 5, "flippers": 6}
HARD = {"fish": 800, "tank": 650, "flippers": 200}
"""Default hard-search iterations per move, a fraction of what the bot's 1.5 s reaches on a quiet core.

Fish and Flippers about a tenth; Tank about 1 s of CPU at 5 players (its playouts end with the round, so an
iteration is cheap), the same CPU per move its earlier, whole-game playouts spent at 200 iterations.
"""


def side_won(game: Any, state: Any, seat: int) -> float:
    """Return `seat`'s victory share of a finished game: 1/k when k sides share the win."""
    winners = game.outcome(state).winners
    if seat not in winners:
        return 0.0
    side = getattr(state, "side", None)
    sides = {side(w) for w in winners} if callable(side) else set(winners)
    return 1.0 / len(sides)


def reference_choice(key: str, view: Mapping[str, Any], seat: int, samples: int, seed: int) -> Action:
    """Return the flat Monte Carlo choice: root actions tried in turn on fresh samples, random playouts."""
    ai = bots()[key]
    game = ai.game
    rng = random.Random(seed)
    actions = game.legal_actions(ai.determinize(view, seat, rng), seat)
    if len(actions) == 1:
        return dict(actions[0])
    wins = [0.0] * len(actions)
    tries = [0] * len(actions)
    for i in range(max(samples, len(actions))):
        pick = i % len(actions)
        state = ai.determinize(view, seat, rng)
        game.apply(state, seat, actions[pick])
        while not game.is_over(state):
            mover = actor(game.to_act(state), seat)
            game.apply(state, mover, rng.choice(game.legal_actions(state, mover)))
        wins[pick] += side_won(game, state, seat)
        tries[pick] += 1
    best = max(range(len(actions)), key=lambda i: wins[i] / tries[i])
    return dict(actions[best])


UCB_EXPLORATION = 0.5
"""UCB1's exploration constant for the ucb reference (rewards are victory shares in [0, 1])."""


def ucb_choice(key: str, view: Mapping[str, Any], seat: int, samples: int, seed: int) -> Action:
    """Return the flat UCB1 Monte Carlo choice: each sample on a fresh deal, to the root action UCB1 picks."""
    ai = bots()[key]
    game = ai.game
    rng = random.Random(seed)
    actions = game.legal_actions(ai.determinize(view, seat, rng), seat)
    if len(actions) == 1:
        return dict(actions[0])
    wins = [0.0] * len(actions)
    tries = [0] * len(actions)
    for i in range(max(samples, len(actions))):
        if i < len(actions):
            pick = i
        else:
            log = math.log(i)
            pick = max(
                range(len(actions)), key=lambda a: wins[a] / tries[a] + UCB_EXPLORATION * math.sqrt(log / tries[a])
            )
        state = ai.determinize(view, seat, rng)
        game.apply(state, seat, actions[pick])
        while not game.is_over(state):
            mover = actor(game.to_act(state), seat)
            game.apply(state, mover, rng.choice(game.legal_actions(state, mover)))
        wins[pick] += side_won(game, state, seat)
        tries[pick] += 1
    best = max(range(len(actions)), key=lambda i: (tries[i], wins[i]))
    return dict(actions[best])


@dataclass
class Budget:
    """Hold the fixed budgets of one game: hard iterations (or virtual seconds) and ref samples per move."""

    hard: int | None
    ref: int
    seconds: float | None = None
    """Seconds of the hard player's virtual clock per move, as the bot thinks; None: `hard` iterations."""
    infer: frozenset[str] = frozenset()
    """Levels that judge which card each Flippers opponent kept back from the card it played (FlippersAI.infer)."""
    sees_hands: frozenset[str] = frozenset()
    """Levels whose sampled Flippers worlds hold every seat's true hand, deck and discards (an upper bound)."""

    def describe(self) -> str:
        """Return the hard player's budget in words."""
        words = f"hard {self.seconds:g} s on its virtual clock" if self.seconds else f"hard {self.hard} iterations"
        words += "".join(f", {level} judges the cards opponents kept" for level in sorted(self.infer))
        return words + "".join(f", {level} sees every hand" for level in sorted(self.sees_hands))


def greedy_choice(key: str, view: Mapping[str, Any], seat: int, seed: int) -> Action:
    """Return the move whose position scores best for `seat` one move ahead (ties drawn at random)."""
    ai = bots()[key]
    rng = random.Random(seed)
    state = ai.determinize(view, seat, rng)
    actions = ai.game.legal_actions(state, seat)
    scores = score_actions(ai, state, seat, actions)
    top = max(scores)
    return dict(rng.choice([a for a, s in zip(actions, scores, strict=True) if s == top]))


@contextmanager
def seeing_hands(truth: FlippersState) -> Iterator[None]:
    """Deal every sampled Flippers world from `truth`: each seat's true hand, deck and discards, decks shuffled."""

    def dealt(ai: FlippersAI, view: Mapping[str, Any], seat: int, rng: random.Random) -> FlippersState:
        world = clone(truth)
        for deck in world.decks:
            rng.shuffle(deck)
        return world

    original = FlippersAI.determinize
    FlippersAI.determinize = dealt  # type: ignore[method-assign]
    try:
        yield
    finally:
        FlippersAI.determinize = original  # type: ignore[method-assign]


def decide(
    key: str, level: str, view: dict[str, Any], seat: int, seed: int, budget: Budget, truth: Any = None
) -> Action:
    """Return the action `level` picks for `seat` from its view (or, with `sees_hands`, from `truth`'s hands)."""
    FlippersAI.infer = level in budget.infer
    if level in budget.sees_hands and key == "flippers" and truth is not None:
        with seeing_hands(truth):
            return decide(key, level, view, seat, seed, replace(budget, sees_hands=frozenset()))
    if level == "greedy":
        return greedy_choice(key, view, seat, seed)
    if level == "ref":
        return reference_choice(key, view, seat, budget.ref, seed)
    if level == "ucb":
        return ucb_choice(key, view, seat, budget.ref, seed)
    if budget.seconds:
        return choose_action(key, view, seat, level, seed, budget_s=budget.seconds, virtual=True)
    return choose_action(key, view, seat, level, seed, budget_s=1e9, iterations=budget.hard)


@dataclass
class Match:
    """Hold one finished match: the first level's victory share and lead, and each level's CPU seconds per move."""

    result: float
    times: dict[str, list[float]] = field(default_factory=dict)
    lead: float = 0.0
    """The first level's final points less the best other side's: a finer measure than who won."""


def play_deal(
    key: str,
    level_of: list[str],
    seed: int,
    budget: Budget,
    rng: random.Random,
    watch: Callable[[Any], None] | None = None,
) -> tuple[Any, dict[str, list[float]]]:
    """Play deal `seed` to the end with `level_of[s]` in seat s; return the final state and CPU seconds per move.

    `watch`, if given, sees the state before every move.
    """
    game = get(key)
    state = game.new_game(len(level_of), {}, seed)
    times: dict[str, list[float]] = {level: [] for level in level_of}
    move = 0
    while not game.is_over(state):
        if watch is not None:
            watch(state)
        seat = game.to_act(state)[0]
        level = level_of[seat]
        if level == "random":
            action = rng.choice(game.legal_actions(state, seat))
        else:
            start = time.process_time()
            action = decide(key, level, game.view(state, seat), seat, seed * 100_003 + move, budget, state)
            times[level].append(time.process_time() - start)
        game.apply(state, seat, action)
        move += 1
    return state, times


def play(key: str, levels: tuple[str, str], players: int, first: int, seed: int, budget: Budget) -> Match:
    """Play one match of deal `seed`: levels[0] in seat `first`, levels[1] in every other seat."""
    level_of = [levels[0] if s == first else levels[1] for s in range(players)]
    state, times = play_deal(key, level_of, seed, budget, random.Random(seed * 7919 + first))
    ai = bots()[key]
    return Match(side_won(ai.game, state, first), times, ai.margin(ai.estimate(state), state, first))


def calibrate(key: str, players: int, budget: Budget, count: int = 4) -> int:
    """Return the ref samples per move that cost the CPU time of the hard player's budget, on fixed positions."""
    spots = [(v, s) for v, s in positions(key, players, count * 3)[1::3]]
    start = time.process_time()
    for i, (view, seat) in enumerate(spots):
        decide(key, "hard", view, seat, i, budget)
    hard_cpu = time.process_time() - start
    probe = 200
    start = time.process_time()
    for i, (view, seat) in enumerate(spots):
        reference_choice(key, view, seat, probe, i)
    ref_cpu = time.process_time() - start
    return max(1, round(probe * hard_cpu / ref_cpu))


def matches(
    key: str, pairing: tuple[str, str], players: int, deals: int, seed: int, every_seat: bool = False
) -> list[tuple[int, int]]:
    """Return (first seat, deal seed) of every match: every seat per deal at 2 players or with `every_seat`.

    Otherwise the first level's seat rotates with the deal at a full table.
    """
    if players == 2 or every_seat:
        return [(first, seed + d) for d in range(deals) for first in range(players)]
    return [((seed + d) % players, seed + d) for d in range(deals)]


def run(
    key: str,
    pairing: tuple[str, str],
    players: int,
    deals: int,
    budget: Budget,
    pool: ProcessPoolExecutor | None,
    first_deal: int = 0,
    every_seat: bool = False,
) -> str:
    """Play one pairing and return its table row."""
    plan = matches(key, pairing, players, deals, first_deal, every_seat)
    args = [(key, pairing, players, first, seed, budget) for first, seed in plan]
    done: list[Match] = []
    for match in pool.map(play, *zip(*args, strict=True)) if pool is not None else (play(*a) for a in args):
        done.append(match)
        share = sum(m.result for m in done) / len(done)
        first, seed = plan[len(done) - 1]
        print(
            f"  {key} {players} {'-'.join(pairing)}: game {len(done)}/{len(args)} (deal {seed}, seat {first}) "
            f"{match.result:.2f}, share so far {share:.2f}",
            file=sys.stderr,
            flush=True,
        )
    games = len(done)
    share = sum(m.result for m in done)
    low, high = wilson(share, games)
    fair = 1 / players
    leads = [m.lead for m in done]
    spread = statistics.stdev(leads) / math.sqrt(games) if games > 1 else 0.0
    timing = []
    for level in pairing:
        samples = [t for m in done for t in m.times.get(level, [])]
        if samples:
            timing.append(f"{statistics.median(samples) * 1000:.0f}")
        else:
            timing.append("-")
    return (
        f"| {key} | {players} | {pairing[0]} vs {pairing[1]} | {share / games:.2f} [{low:.2f}, {high:.2f}] "
        f"| {share / games / fair:.2f}x | {statistics.mean(leads):+.2f} ± {spread:.2f} | {games} "
        f"| {' / '.join(timing)} |"
    )


def main() -> None:
    """Parse the options, fix the budgets and print the ladder as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="table sizes (default: 2 and the largest)")
    parser.add_argument(
        "--pairing", action="append", help="only this pairing, e.g. hard-ref (repeatable; default every pair)"
    )
    parser.add_argument("--deals", type=int, default=5, help="deals per pairing (2 players: 2 games per deal)")
    parser.add_argument("--first-deal", type=int, default=0, help="seed of the first deal (to continue or split a run)")
    parser.add_argument(
        "--hard",
        type=int,
        help="hard-search iterations per move (default per game: fish "
        f"{HARD['fish']}, tank {HARD['tank']}, flippers {HARD['flippers']})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        help="hard thinks this many seconds of its virtual clock per move, as deployed (the bot: 1.5); "
        "instead of --hard",
    )
    parser.add_argument(
        "--deployed",
        action="store_true",
        help=f"hard thinks as the bot does: {THINK_BUDGET:g} s of its virtual clock per move (ui.bots.THINK_BUDGET)",
    )
    parser.add_argument(
        "--every-seat", action="store_true", help="at a full table, play every deal with the first level in each seat"
    )
    parser.add_argument("--ref", type=int, help="ref samples per move (default: the CPU time of the hard budget)")
    parser.add_argument(
        "--infer",
        action="append",
        default=[],
        choices=LEVELS,
        help="this level judges which card each Flippers opponent kept back from the card it played, instead of "
        "dealing their unseen cards uniformly (repeatable)",
    )
    parser.add_argument(
        "--sees-hands",
        action="append",
        default=[],
        choices=LEVELS,
        help="this level's Flippers worlds hold every seat's true hand, deck and discards (decks shuffled): what "
        "perfect knowledge of the hidden cards would give (repeatable)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="matches played in parallel processes")
    args = parser.parse_args()
    if args.deployed:
        args.seconds = THINK_BUDGET
    pairings = (
        [tuple(p.split("-")) for p in args.pairing]
        if args.pairing
        else [(a, b) for i, a in enumerate(STRONGEST_FIRST) for b in STRONGEST_FIRST[i + 1 :]]
    )
    for pairing in pairings:
        if len(pairing) != 2 or not set(pairing) <= set(LEVELS):
            parser.error(f"pairings are two of {', '.join(LEVELS)} joined by '-'")
    if args.sees_hands and set(args.game or GAMES) != {"flippers"}:
        parser.error("--sees-hands deals Flippers worlds only: add --game flippers")
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    print(
        "| game | players | first vs the others | first's victory share [95% Wilson] | over the fair share "
        "| first's lead in points (mean ± s.e.) | games | CPU ms per move (median) |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
        flush=True,
    )
    notes = []
    for key in args.game or GAMES:
        hard = None if args.seconds else args.hard or HARD[key]
        for players in args.players or (2, FULL[key]):
            needs_ref = any({"ref", "ucb"} & set(pairing) for pairing in pairings)
            budget = Budget(hard, 0, args.seconds, frozenset(args.infer), frozenset(args.sees_hands))
            budget.ref = args.ref or (calibrate(key, players, budget) if needs_ref else 0)
            notes.append(f"{key} {players} players: {budget.describe()}, ref {budget.ref} samples per move")
            print(f"<!-- {notes[-1]} -->", flush=True)
            for pairing in pairings:
                row = run(key, pairing, players, args.deals, budget, pool, args.first_deal, args.every_seat)  # type: ignore[arg-type]
                print(row, flush=True)
    if pool is not None:
        pool.shutdown()
    print("\n".join(notes))


if __name__ == "__main__":
    main()
