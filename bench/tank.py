"""Measure 10 Gallon Tank: random full games per second, and render+encode times of its pictures."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.tank import GAME
from render.tank import render_aquarium, render_final, render_table

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def games_per_second(seconds: float = 2.0) -> tuple[float, float]:
    """Return (games per second, actions per game) over a mix of 2 to 5 players."""
    start = time.perf_counter()
    games = 0
    actions = 0
    while time.perf_counter() - start < seconds:
        players = 2 + games % 4
        rng = random.Random(games)
        state = GAME.new_game(players, {}, games)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def timings(
    draw: Callable[[dict[str, Any], list[str]], bytes], views: list[dict[str, Any]]
) -> tuple[float, float, float]:
    """Return (median, p95, median CPU) ms per render+encode; CPU time stays honest on a shared machine."""
    draw(views[0], NAMES)  # build the process's palette and sprites first, as a warmed render worker has
    samples, cpu = [], []
    for view in views:
        start, start_cpu = time.perf_counter(), time.process_time()
        draw(view, NAMES)
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))], statistics.median(cpu)


def sample_views(count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Collect public table views, seat views and final views from random games."""
    tables: list[dict[str, Any]] = []
    aquariums: list[dict[str, Any]] = []
    finals: list[dict[str, Any]] = []
    seed = 0
    while len(tables) < count:
        rng = random.Random(seed)
        state = GAME.new_game(2 + seed % 4, {}, seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            if rng.random() < 0.3:
                tables.append(GAME.view(state, None))
                aquariums.append(GAME.view(state, seat))
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        finals.append(GAME.view(state, None))
        seed += 1
    return tables[:count], aquariums[:count], finals


def late_game_views(players: int, games: int = 6) -> dict[str, list[dict[str, Any]]]:
    """Collect late-game pictures of random games: the last round's table, every aquarium, and the end."""
    found: dict[str, list[dict[str, Any]]] = {"table": [], "aquarium": [], "final": [], "final aquarium": []}
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new_game(players, {}, 1000 + seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            if state.round == state.setup.rounds and state.phase != "split":
                found["table"].append(GAME.view(state, None))
                found["aquarium"] += [GAME.view(state, s) for s in range(players)]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        found["final"].append(GAME.view(state, None))
        found["final aquarium"] += [GAME.view(state, s) for s in range(players)]
    return found


def main() -> None:
    """Print the figures."""
    rate, per_game = games_per_second()
    print(f"engine: {rate:,.0f} random full games/s ({per_game:.1f} actions per game, 2-5 players mixed)")
    tables, aquariums, finals = sample_views(200)
    for label, draw, views in (
        ("public table", render_table, tables),
        ("aquarium", render_aquarium, aquariums),
        ("final scores", render_final, finals),
    ):
        median, p95, cpu = timings(draw, views)
        figures = f"median {median:.1f} ms, p95 {p95:.1f} ms, CPU {cpu:.1f} ms"
        print(f"render+encode {label}: {figures} ({len(views)} images)")
    draws = {"table": render_table, "aquarium": render_aquarium, "final": render_final}
    draws["final aquarium"] = render_aquarium
    for players in range(GAME.min_players, GAME.max_players + 1):
        figures = []
        for label, views in late_game_views(players).items():
            median, p95, cpu = timings(draws[label], views)
            figures.append(f"{label} {median:.1f}/{p95:.1f}/{cpu:.1f}")
        print(f"late game, {players} players, render+encode ms median/p95/CPU: " + ", ".join(figures))


if __name__ == "__main__":
    main()
