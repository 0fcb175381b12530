"""Measure `/game replay`: first request (drawn in the render pool) and second request (cached), per game."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from engine.registry import get
from storage.database import FINISHED, GameRow, Seat
from ui.replays import ReplayCache, replay_gif
from ui.workers import make_pool, nothing, warm_renderer

NAMES = ["Ana", "山田太郎", "🐧 Pingu", "Ёлка", "שלום", "مرحبا"]
# (game, players): a typical table of each game, and the longest games the bot hosts.
TABLES = [("fish", 4), ("tank", 4), ("flippers", 4), ("flippers", 6), ("tank", 5)]


def finished_game(kind: str, players: int, seed: int) -> tuple[GameRow, list[dict[str, Any]]]:
    """Play a random full game and return it as a saved finished game with its action log."""
    game, rng = get(kind), random.Random(seed)
    state = game.new_game(players, {}, seed)
    log = []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        log.append({"seat": seat, "action": action})
    seats = [Seat(i, 1000 + i, NAMES[i]) for i in range(players)]
    row = GameRow(seed, None, 1, kind, FINISHED, 1000, {}, seed, None, len(log), None, "", "", seats)
    return row, log


async def cpu_seconds(row: GameRow, log: list[dict[str, Any]]) -> float:
    """Return the CPU time one replay costs, drawn in this process: a figure other load on the machine barely moves."""
    with ThreadPoolExecutor(1) as pool:
        start = time.process_time()
        await replay_gif(pool, ReplayCache(None), row, log)
        return time.process_time() - start


async def measure(runs: int) -> None:
    """Print first and second request times, CPU cost and GIF sizes for each table, as medians over `runs` games."""
    pool = make_pool("process", 2, "render", warm=warm_renderer)
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(pool, nothing) for _ in range(2)))
    with tempfile.TemporaryDirectory() as folder:
        cache = ReplayCache(Path(folder))
        for kind, players in TABLES:
            first, second, cpu, sizes, moves = [], [], [], [], []
            for seed in range(runs):
                row, log = finished_game(kind, players, 100 * players + seed)
                start = time.perf_counter()
                gif = await replay_gif(pool, cache, row, log)
                first.append(time.perf_counter() - start)
                start = time.perf_counter()
                assert await replay_gif(pool, cache, row, log) == gif
                second.append(time.perf_counter() - start)
                cpu.append(await cpu_seconds(row, log))
                sizes.append(len(gif) / 2**20)
                moves.append(len(log))
            print(
                f"{kind:8} {players}p ({statistics.median(moves):.0f} moves): first request median "
                f"{statistics.median(first):.2f} s (max {max(first):.2f}), "
                f"second {1000 * statistics.median(second):.1f} ms, CPU {statistics.median(cpu):.2f} s, "
                f"GIF {statistics.median(sizes):.2f} MiB (max {max(sizes):.2f})"
            )
    pool.shutdown()


def main() -> None:
    """Run the replay benchmark."""
    asyncio.run(measure(runs=3))


if __name__ == "__main__":
    main()
