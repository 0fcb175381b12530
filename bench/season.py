"""Simulate a season of rated games and report whether the leaderboard order matches the players' true order.

Two kinds of season, both played through the real storage and rating code (a SQLite file, one finished game
at a time, rated as the bot rates it):

- `--model synthetic`: each player has a known skill; a game's finishing order is a Plackett-Luce draw from
  those skills (the model openskill assumes), so the true order is exact.
- `--model fish`: real Hey, That's My Fish! games. Player k of 12 plays the easy computer player's move with
  probability k/11 and a random legal move otherwise (the true order is k); the easy and hard computer players
  sit in too (the hard one searches a fixed number of iterations).

    .venv/bin/python -m bench.season                          # synthetic, 300 games, 12 players + 2 computers
    .venv/bin/python -m bench.season --model fish --games 300
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ai import choose_action
from engine.registry import get
from storage import ratings
from storage.database import Database, Result, Seat
from tests.clock import Clock

HUMANS = 12
COMPUTERS = {-1: "easy", -2: "hard"}
HARD_ITERATIONS = 150


@dataclass(frozen=True)
class Player:
    """One player of the season: id, true strength (higher is better) and how they choose moves."""

    user_id: int
    strength: float
    level: str | None = None

    @property
    def key(self) -> str:
        """Return the player's rating identity."""
        return ratings.player_key(self.user_id, self.level)


def roster(model: str) -> list[Player]:
    """Return the 12 people and the two computer players, with their true strengths."""
    people = [Player(k + 1, k / (HUMANS - 1)) for k in range(HUMANS)]
    if model == "synthetic":
        return [*people, Player(-1, 0.55, "easy"), Player(-2, 1.3, "hard")]
    return [*people, Player(-1, 1.0, "easy"), Player(-2, 1.5, "hard")]


def synthetic_ranks(players: list[Player], rng: random.Random) -> list[int]:
    """Draw a finishing order: Plackett-Luce with weights exp(3 * strength) (Gumbel noise on 3 * strength)."""
    performance = [3 * p.strength - math.log(-math.log(rng.random())) for p in players]
    order = sorted(range(len(players)), key=lambda i: -performance[i])
    ranks = [0] * len(players)
    for place, i in enumerate(order, start=1):
        ranks[i] = place
    return ranks


def fish_ranks(players: list[Player], rng: random.Random, seed: int) -> tuple[list[int], list[int], object]:
    """Play a real game of fish between these players; return ranks, scores and the final state."""
    game = get("fish")
    state = game.new_game(len(players), {}, seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        player = players[seat]
        view = game.view(state, seat)
        if player.level == "hard":
            action = choose_action("fish", view, seat, "hard", rng.randrange(2**31), iterations=HARD_ITERATIONS)
        elif player.level == "easy" or rng.random() < player.strength:
            action = choose_action("fish", view, seat, "easy", rng.randrange(2**31))
        else:
            action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
    standings = {s.seat: s for s in game.outcome(state).standings}
    return [standings[i].rank for i in range(len(players))], [standings[i].score for i in range(len(players))], state


async def save(db: Database, players: list[Player], ranks: list[int], scores: list[int], state: object) -> int:
    """Save one finished game with its results, as the bot would."""
    game = get("fish")
    first = players[0]
    channel = int(db.clock().timestamp())
    row = await db.create_game(
        guild_id=1, channel_id=channel, kind="fish", host=Seat(0, first.user_id, "P"), options={}, seed=1
    )
    for p in players[1:]:
        await db.seat_player(row.id, p.user_id, f"P{p.user_id}", 4, bot_level=p.level)
    start = game.new_game(len(players), {}, 1)
    version = await db.start_game(row.id, game.dump(start), row.version)
    results = [
        Result(seat, p.user_id, p.user_id < 0, scores[seat], ranks[seat], ranks[seat] == 1)
        for seat, p in enumerate(players)
    ]
    await db.record_action(
        row.id,
        version,
        game.dump(state if state is not None else start),
        seat=0,
        user_id=first.user_id,
        action={"type": "end"},
        events=[],
        finished=True,
        results=results,
    )
    db.clock.advance(0.1)  # type: ignore[attr-defined]
    return row.id


def spearman(a: list[int], b: list[int]) -> float:
    """Return Spearman's rank correlation of two orders of the same items."""
    n = len(a)
    pos = {x: i for i, x in enumerate(b)}
    d2 = sum((i - pos[x]) ** 2 for i, x in enumerate(a))
    return 1 - 6 * d2 / (n * (n * n - 1))


def kendall(a: list[int], b: list[int]) -> tuple[float, int]:
    """Return Kendall's tau of two orders and the number of pairs in the wrong order."""
    pos = {x: i for i, x in enumerate(b)}
    n = len(a)
    wrong = sum(1 for i in range(n) for j in range(i + 1, n) if pos[a[i]] > pos[a[j]])
    pairs = n * (n - 1) // 2
    return 1 - 2 * wrong / pairs, wrong


async def season(model: str, games: int, seed: int, checkpoints: list[int]) -> None:
    """Play the season and print how the leaderboard compares with the true order at each checkpoint."""
    rng = random.Random(seed)
    everyone = roster(model)
    truth = [p.key for p in sorted(everyone, key=lambda p: -p.strength)]
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{Path(folder) / 'season.db'}", clock=Clock())
        await db.open()
        try:
            rate_cpu, play_cpu = 0.0, 0.0
            print(f"model {model}, {games} games, seed {seed}; true order (best first): {', '.join(truth)}")
            print("games | Spearman | Kendall tau | pairs out of order | top 3 right | provisional")
            for n in range(1, games + 1):
                size = rng.choice((2, 3, 4))
                table = rng.sample(everyone, size)
                if table[0].level is not None:  # the host who opened the lobby is a person
                    host = next((p for p in everyone if p.level is None and p not in table), everyone[0])
                    table[0] = host
                started = time.process_time()
                if model == "synthetic":
                    ranks, scores, state = synthetic_ranks(table, rng), [0] * size, None
                else:
                    ranks, scores, state = fish_ranks(table, rng, rng.randrange(2**31))
                play_cpu += time.process_time() - started
                await save(db, table, ranks, scores, state)
                started = time.process_time()
                await ratings.catch_up(db, 1, "fish")
                rate_cpu += time.process_time() - started
                if n in checkpoints or n == games:
                    board = [r.player for r in await ratings.leaderboard(db, 1, "fish", 100)]
                    known = [k for k in truth if k in board]
                    rho, (tau, wrong) = spearman(board, known), kendall(board, known)
                    provisional = sum(1 for r in await ratings.leaderboard(db, 1, "fish", 100) if r.provisional)
                    top = sum(1 for k in board[:3] if k in known[:3])
                    print(f"{n:>5} | {rho:8.3f} | {tau:11.3f} | {wrong:>18} | {top:>11} | {provisional:>11}")
            final = await ratings.leaderboard(db, 1, "fish", 100)
            print("final leaderboard: " + ", ".join(f"{r.player} {r.conservative:.1f} ({r.games})" for r in final))
            started = time.process_time()
            await ratings.rebuild(db)
            rebuild_cpu = time.process_time() - started
            again = await ratings.leaderboard(db, 1, "fish", 100)
            same = [(r.player, r.mu, r.sigma) for r in again] == [(r.player, r.mu, r.sigma) for r in final]
            print(
                f"rating CPU per game {1000 * rate_cpu / games:.2f} ms; full rebuild {1000 * rebuild_cpu:.0f} ms CPU;"
                f" rebuild gives identical ratings: {same}; playing the games took {play_cpu:.1f} s CPU"
            )
        finally:
            await db.close()


def main() -> None:
    """Run a season from the command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", choices=("synthetic", "fish"), default="synthetic")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoints", default="25,50,100,200", help="games after which to compare the orders")
    args = parser.parse_args()
    points = [int(x) for x in args.checkpoints.split(",") if x]
    asyncio.run(season(args.model, args.games, args.seed, points))


if __name__ == "__main__":
    main()
