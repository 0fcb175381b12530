"""Describe the 60-hex board: labels, neighbours and straight lines."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "fish.json").read_text())

ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Doubled-width coordinates: moving east adds 2 to x, a diagonal step changes x by 1 and the row by 1.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "E": (0, 2),
    "W": (0, -2),
    "NE": (-1, 1),
    "NW": (-1, -1),
    "SE": (1, 1),
    "SW": (1, -1),
}


@dataclass(frozen=True)
class Layout:
    """Hold the board's cells: index <-> label <-> (row, doubled x)."""

    labels: tuple[str, ...]
    coords: tuple[tuple[int, int], ...]
    index_of: dict[str, int]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """For each cell, the six straight lines of cells leading away from it, nearest first."""
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        """Return the number of cells."""
        return len(self.labels)


@cache
def layout() -> Layout:
    """Build the board described by data/fish.json ("even-r": the shorter rows sit half a hex in)."""
    row_lengths: list[int] = DATA["rows"]
    longest = max(row_lengths)
    labels: list[str] = []
    coords: list[tuple[int, int]] = []
    for r, length in enumerate(row_lengths):
        indent = longest - length
        for i in range(length):
            labels.append(f"{ROW_LETTERS[r]}{i + 1}")
            coords.append((r, indent + 2 * i))
    at = {c: i for i, c in enumerate(coords)}
    rays = []
    for r, x in coords:
        cell_rays = []
        for dr, dx in DIRECTIONS.values():
            ray = []
            rr, xx = r + dr, x + dx
            while (rr, xx) in at:
                ray.append(at[(rr, xx)])
                rr, xx = rr + dr, xx + dx
            cell_rays.append(tuple(ray))
        rays.append(tuple(cell_rays))
    neighbours = tuple(tuple(ray[0] for ray in cell if ray) for cell in rays)
    return Layout(tuple(labels), tuple(coords), {label: i for i, label in enumerate(labels)}, tuple(rays), neighbours)


def tile_bag() -> list[int]:
    """Return the fish value of every tile, in a fixed order before shuffling."""
    return [int(fish) for fish, count in DATA["tiles"].items() for _ in range(count)]


def is_balanced(tiles: list[int]) -> bool:
    """Return True when no two top-value tiles touch and every row holds a richer tile."""
    board = layout()
    rules = DATA["balanced"]
    top, rich = rules["forbid_touching_fish"], rules["row_needs_fish_at_least"]
    for i, fish in enumerate(tiles):
        if fish == top and any(tiles[n] == top for n in board.neighbours[i]):
            return False
    rows_with_rich = {board.coords[i][0] for i, fish in enumerate(tiles) if fish >= rich}
    return len(rows_with_rich) == len(DATA["rows"])


BAG = tuple(tile_bag())
SWAPS = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, len(BAG))))
"""Fisher-Yates steps as `random.shuffle` takes them: (position, choices, random bits drawn per try)."""


def shuffle(tiles: list[int], rng: random.Random) -> None:
    """Shuffle the tiles in place exactly as `rng.shuffle(tiles)` does, without a method call per swap."""
    getrandbits = rng.getrandbits
    for i, n, k in SWAPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]


def deal(seed: int, balanced: bool) -> list[int]:
    """Shuffle the tiles onto the board from the seed, re-dealing until balanced if asked."""
    rng = random.Random(seed)
    tiles = list(BAG)
    for _ in range(DATA["balanced"]["max_redeals"]):
        shuffle(tiles, rng)
        if not balanced or is_balanced(tiles):
            return tiles
    raise RuntimeError("no balanced board found; raise balanced.max_redeals in data/fish.json")
