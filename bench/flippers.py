"""Measure Flippers: random full games per second, and render+encode times of a late-game table and a hand."""

from __future__ import annotations

import io
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from engine.flippers import GAME
from render.flippers import render_hand, render_table

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]


def games_per_second(seconds: float = 3.0) -> tuple[float, float]:
    """Return (games per second, actions per game) over 2 to 6 players, choosing among legal_actions."""
    start = time.perf_counter()
    games = actions = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(games)
        state = GAME.new_game(2 + games % 5, {}, games)
        while not GAME.is_over(state):
            seat = rng.choice(GAME.to_act(state))
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            actions += 1
        games += 1
    return games / (time.perf_counter() - start), actions / games


def late_views(count: int, first_seed: int = 0) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return public and private views of 6-player games with two turns left to play."""
    tables, hands = [], []
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        state = GAME.new_game(6, {}, seed)
        while sum(len(h) + len(d) for h, d in zip(state.hands, state.decks, strict=True)) > 8:
            seat = rng.choice(GAME.to_act(state))
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        tables.append(GAME.view(state, None))
        hands.append(GAME.view(state, state.current))
    return tables, hands


def timings(
    draw: Callable[[dict[str, Any], list[str]], bytes], views: list[dict[str, Any]], runs: int = 3
) -> tuple[float, float, float]:
    """Return (median, p95, median CPU) milliseconds to render and encode each view, over `runs` passes.

    The CPU time is this process's own, so it stays meaningful while other work shares the machine.
    """
    samples, cpu = [], []
    for _ in range(runs):
        for view in views:
            start, start_cpu = time.perf_counter(), time.process_time()
            draw(view, NAMES)
            samples.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))], statistics.median(cpu)


def main() -> None:
    """Print the figures: the renderers are warmed on other games first, as a long-running worker is."""
    rate, per_game = games_per_second()
    print(f"random games: {rate:.0f} games/s ({per_game:.0f} actions per game, 2-6 players)")
    warm_tables, warm_hands = late_views(40, first_seed=1000)
    for view in warm_tables:
        render_table(view, NAMES)
    for view in warm_hands:
        render_hand(view, NAMES)
    tables, hands = late_views(40)
    median, p95, cpu = timings(render_table, tables)
    size = Image.open(io.BytesIO(render_table(tables[0], NAMES))).size
    print(
        f"late-game 6-player table render+encode: median {median:.1f} ms, p95 {p95:.1f} ms,"
        f" CPU median {cpu:.1f} ms ({size[0]}x{size[1]} px)"
    )
    median, p95, cpu = timings(render_hand, hands)
    print(f"hand render+encode: median {median:.1f} ms, p95 {p95:.1f} ms, CPU median {cpu:.1f} ms")


if __name__ == "__main__":
    main()
