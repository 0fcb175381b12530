"""Measure Hey, That's My Fish!: engine games/s, board render+encode ms and save ms per move."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine.fish import GAME
from render.fish import render_board
from storage.database import Database, Seat

NAMES = ["Ana", "Bartholomew", "Cy", "Dee"]


def percentile(samples: list[float], q: float) -> float:
    """Return the q-th quantile of samples (0..1)."""
    ordered = sorted(samples)
    return ordered[round(q * (len(ordered) - 1))]


def games_per_second(seconds: float = 3.0, game: Any = GAME) -> tuple[float, float]:
    """Play random full games through the engine API; return (games/s, actions per game)."""
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(games)
        state = game.new_game(2 + games % 3, {}, games)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            actions += 1
        games += 1
    return games / (time.perf_counter() - start), actions / games


def seeded_rate(game: Any, games: int) -> float:
    """Play random full games on seeds 0..games-1 through the engine API; return games per CPU second."""
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(2 + seed % 3, {}, seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return games / (time.process_time() - start)


def side_by_side(pairs: int, games: int) -> None:
    """Print the reference and the current engine's rates on the same seeds, alternating, and their median ratio."""
    from tests.engine.fish.reference import FishGame as ReferenceGame

    reference = ReferenceGame()
    runs = [(seeded_rate(reference, games), seeded_rate(GAME, games)) for _ in range(pairs)]
    old, new = statistics.median(r for r, _ in runs), statistics.median(n for _, n in runs)
    ratio = statistics.median(n / r for r, n in runs)
    print(
        f"engine side by side, the same {games} seeds each run, {pairs} alternating runs, CPU time: "
        f"reference {old:,.0f} games/s, current {new:,.0f} games/s, median ratio {ratio:.2f}x "
        f"(ratios {min(n / r for r, n in runs):.2f}-{max(n / r for r, n in runs):.2f})"
    )


def late_game_views(count: int) -> list[dict[str, Any]]:
    """Collect public views from the second third of the play phase of random 2-4 player games."""
    views: list[dict[str, Any]] = []
    seed = 0
    while len(views) < count:
        rng = random.Random(seed)
        state = GAME.new_game(2 + seed % 3, {}, seed)
        played = []
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            if state.phase == "play":
                played.append(GAME.view(state, None))
        views += played[len(played) // 3 : len(played) // 3 + 6]
        seed += 1
    return views[:count]


def sample_views(count: int) -> list[dict[str, Any]]:
    """Collect public views from every stage of random 4-player games."""
    views: list[dict[str, Any]] = []
    seed = 0
    while len(views) < count:
        rng = random.Random(seed)
        state = GAME.new_game(2 + seed % 3, {}, seed)
        while not GAME.is_over(state) and len(views) < count:
            views.append(GAME.view(state, None))
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        seed += 1
    return views


def render_times(views: list[dict[str, Any]]) -> list[float]:
    """Return milliseconds to render and encode each view."""
    samples = []
    for view in views:
        start = time.perf_counter()
        render_board(view, NAMES)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def save_times(moves: int) -> list[float]:
    """Return milliseconds to save each move (state + action log, one transaction) on a real file."""
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        db = Database(str(Path(folder) / "bench.db"))
        await db.open()
        seed = 0
        while len(samples) < moves:
            row = await db.create_game(
                guild_id=1, channel_id=seed, kind="fish", host=Seat(0, 1, "Ana"), options={}, seed=seed
            )
            await db.seat_player(row.id, 2, "Bo", 4)
            state = GAME.new_game(2, {}, seed)
            version = await db.start_game(row.id, GAME.dump(state), 0)
            rng = random.Random(seed)
            while not GAME.is_over(state) and len(samples) < moves:
                seat = GAME.to_act(state)[0]
                action = rng.choice(GAME.legal_actions(state, seat))
                events = GAME.apply(state, seat, action)
                start = time.perf_counter()
                version = await db.record_action(
                    row.id,
                    version,
                    GAME.dump(state),
                    seat=seat,
                    user_id=seat + 1,
                    action=action,
                    events=[e.to_json() for e in events],
                    finished=GAME.is_over(state),
                )
                samples.append((time.perf_counter() - start) * 1000)
            seed += 1
        await db.close()
    return samples


def calibration() -> float:
    """Return microseconds for sum(range(1000)), to compare this machine's Python speed with others."""
    start = time.perf_counter()
    for _ in range(2000):
        sum(range(1000))
    return (time.perf_counter() - start) / 2000 * 1e6


def differential(games: int) -> None:
    """Play seeded random games on the bitmask engine and the test-only reference engine; stop at any difference."""
    from tests.engine.fish.differential import play_both

    start = time.perf_counter()
    steps = sum(play_both(seed) for seed in range(games))
    took = time.perf_counter() - start
    print(f"differential: {games:,} games, {steps:,} steps agree with the reference engine ({took:.1f} s)")


def main() -> None:
    """Print the figures; `--differential N` checks N games against the reference engine instead, `--versus`
    prints only the calibration and the side-by-side engine comparison."""
    if "--differential" in sys.argv:
        differential(int(sys.argv[sys.argv.index("--differential") + 1]))
        return
    if "--versus" in sys.argv:
        print(f"machine: sum(range(1000)) takes {calibration():.1f} µs here ({os.cpu_count()} cores)")
        side_by_side(7, 400)
        return
    print(f"machine: sum(range(1000)) takes {calibration():.1f} µs here ({os.cpu_count()} cores)")
    runs = [games_per_second(2.0) for _ in range(5)]
    rate, per_game = statistics.median(r for r, _ in runs), runs[0][1]
    print(
        f"engine: {rate:,.0f} random full games/s on one core, median of 5 runs of 2 s "
        f"({min(r for r, _ in runs):,.0f}-{max(r for r, _ in runs):,.0f}; "
        f"{per_game:.1f} actions per game, 2-4 players mixed)"
    )
    side_by_side(7, 400)
    cores = os.cpu_count() or 1
    with ProcessPoolExecutor(cores, mp_context=multiprocessing.get_context("spawn")) as pool:
        rates = list(pool.map(games_per_second, [3.0] * cores))
    print(f"engine: {sum(r for r, _ in rates):,.0f} random full games/s using all {cores} cores")
    for what, views in (("every stage", sample_views(300)), ("late game", late_game_views(120))):
        times = render_times(views)
        print(
            f"board render+encode, {what}: median {statistics.median(times):.1f} ms, "
            f"p95 {percentile(times, 0.95):.1f} ms ({len(times)} boards)"
        )
    saves = asyncio.run(save_times(1000))
    print(
        f"save per move: median {statistics.median(saves):.2f} ms, p95 {percentile(saves, 0.95):.2f} ms "
        f"({len(saves)} moves, WAL, synchronous=NORMAL)"
    )


if __name__ == "__main__":
    main()
