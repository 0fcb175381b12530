"""Precompute the board's tables for fast play: cell bits, slide paths, and every legal action built once.

Cells are bits of an int. For each cell the tables give its neighbours, the cells each slide crosses and, for
every pattern of free cells along its rays, the move actions that pattern allows, shared by every legal-actions
list (`SharedAction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.fish.board import DATA, layout

BOARD = layout()
RAYS = BOARD.rays
LABELS = BOARD.labels
INDEX = BOARD.index_of
SIZE = BOARD.size
PLACEMENT_FISH: int = DATA["placement_fish"]
BIT = tuple(1 << c for c in range(SIZE))
ONE_DIGITS = bytes(48 + (fish == PLACEMENT_FISH) for fish in range(256))
"""Turn a fish count (as a byte) into the digit "1" for a placement tile, "0" otherwise, to read a mask in base 2."""
ALL = (1 << SIZE) - 1


def _mask(cells: Sequence[int]) -> int:
    """Return the bitmask of some cells."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


NEIGHBOUR_MASKS = tuple(_mask(n) for n in BOARD.neighbours)
NEAR_MASKS = tuple(NEIGHBOUR_MASKS[c] | BIT[c] for c in range(SIZE))
PATHS: tuple[dict[int, int], ...] = tuple(
    {dst: _mask(ray[: k + 1]) for ray in rays for k, dst in enumerate(ray)} for rays in RAYS
)
"""For each start cell, every cell in line with it mapped to the bits a slide there crosses (the end included)."""


def _slides(ray: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Map each pattern of free cells on a ray (as board bits) to the cells a penguin can slide to, nearest first."""
    table = {}
    for pattern in range(1 << len(ray)):
        free = _mask([c for k, c in enumerate(ray) if pattern >> k & 1])
        n = 0
        while n < len(ray) and free >> ray[n] & 1:
            n += 1
        table[free] = ray[:n]
    return table


DEST_CELLS = tuple(tuple((_mask(ray), _slides(ray)) for ray in rays if ray) for rays in RAYS)
"""For each cell, its rays (E, W, NE, NW, SE, SW; empty ones left out) as (ray bits, {free bits: destinations})."""


class SharedAction(dict):  # type: ignore[type-arg]
    """A legal action built once and shared by every `legal_actions` list: read-only, and it knows its cells.

    It equals, serialises and pickles as the plain dict it shows; copy it (`dict(action)`) to change it.
    """

    __slots__ = ("cells",)

    def __init__(self, data: dict[str, str], cells: tuple[int, ...]) -> None:
        super().__init__(data)
        self.cells = cells

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("legal actions are shared and read-only: copy one with dict(action) to change it")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = __ior__ = _read_only

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return dict, (dict(self),)


MOVES = tuple(
    {dst: SharedAction({"type": "move", "from": LABELS[src], "to": LABELS[dst]}, (src, dst)) for dst in PATHS[src]}
    for src in range(SIZE)
)
"""Every move action there can be, by start cell and end cell."""
PLACES = tuple(SharedAction({"type": "place", "tile": LABELS[c]}, (c,)) for c in range(SIZE))
DEST_ACTIONS = tuple(
    tuple(
        (mask, {free: tuple(MOVES[src][dst] for dst in cells) for free, cells in table.items()}) for mask, table in rays
    )
    for src, rays in enumerate(DEST_CELLS)
)
"""DEST_CELLS with the move actions themselves, so a list of legal moves is a few tuple concatenations."""


def _merge(rays: tuple[tuple[int, dict[int, tuple[SharedAction, ...]]], ...], bits: int = 8) -> tuple[Any, ...]:
    """Join neighbouring rays into one table while they span at most `bits` cells, keeping the ray order."""
    groups: list[tuple[int, dict[int, tuple[SharedAction, ...]]]] = []
    for mask, table in rays:
        if groups and (groups[-1][0] | mask).bit_count() <= bits:
            joined, before = groups[-1]
            groups[-1] = (joined | mask, {a | b: x + y for a, x in before.items() for b, y in table.items()})
        else:
            groups.append((mask, table))
    return tuple(groups)


MOVE_GROUPS: tuple[tuple[tuple[int, dict[int, tuple[SharedAction, ...]]], ...], ...] = tuple(
    _merge(rays) for rays in DEST_ACTIONS
)
"""DEST_ACTIONS with neighbouring rays joined (about 2.8 lookups per penguin instead of 5; 19,380 entries in all)."""
CHUNK = 10
CHUNK_MASK = (1 << CHUNK) - 1
PLACE_CHUNKS = tuple(
    (base, tuple(tuple(PLACES[base + k] for k in range(CHUNK) if bits >> k & 1) for bits in range(1 << CHUNK)))
    for base in range(0, SIZE, CHUNK)
)
"""For each run of CHUNK cells, the placements on every pattern of free 1-fish tiles among them."""


AFTER = tuple(
    tuple(tuple((seat + step) % players for step in range(1, players + 1)) for seat in range(players))
    for players in range(5)
)
"""For each player count and seat, the seats in the order they play after it (itself last)."""


def destinations(cell: int, free: int) -> list[int]:
    """Return the cells a penguin on `cell` can reach, ray by ray (E, W, NE, NW, SE, SW), nearest first."""
    return [dst for mask, table in DEST_CELLS[cell] for dst in table[free & mask]]
