"""Describe the unbounded square grid: directions, cell labels and where each card aims."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import cache

Cell = tuple[int, int]
"""(column, row): column 0 is "A" and grows east; row numbers grow south, as printed on the label."""

DIRECTIONS = ("N", "E", "S", "W")
STEP: dict[str, Cell] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
_LABEL = re.compile(r"^(-?)([A-Z]+)(-?\d+)$")


def rotate(direction: str, quarters: int = 1) -> str:
    """Return `direction` turned clockwise by `quarters` right angles (negative: anticlockwise)."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + quarters) % 4]


def mirror(facing: str, toward: str) -> str:
    """Return `facing` mirrored by a flip toward `toward`: N/S flips swap N and S, E/W flips swap E and W."""
    axis = ("N", "S") if toward in ("N", "S") else ("E", "W")
    if facing in axis:
        return axis[1 - axis.index(facing)]
    return facing


def step(cell: Cell, direction: str) -> Cell:
    """Return the neighbour of `cell` in `direction`."""
    dx, dy = STEP[direction]
    return cell[0] + dx, cell[1] + dy


def neighbours(cell: Cell) -> list[Cell]:
    """Return the four cells sharing an edge with `cell`."""
    return [step(cell, d) for d in DIRECTIONS]


def frontier(cells: Collection[Cell]) -> set[Cell]:
    """Return the empty cells sharing an edge with any of `cells`."""
    return {n for x, y in cells for n in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))}.difference(cells)


@cache
def column_label(col: int) -> str:
    """Return a column's letters: 0 is A, 25 is Z, 26 is AA; west of A: -A, -B, ..."""
    if col < 0:
        return "-" + column_label(-col - 1)
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


@cache
def label(cell: Cell) -> str:
    """Return a cell's label, e.g. (13, 15) -> "N15"."""
    return f"{column_label(cell[0])}{cell[1]}"


def parse_label(text: str) -> Cell | None:
    """Return the cell a label names (any case, spaces ignored), or None when it is not a label."""
    match = _LABEL.match(text.replace(" ", "").upper()) if isinstance(text, str) else None
    if not match:
        return None
    sign, letters, row = match.groups()
    col = 0
    for char in letters:
        col = col * 26 + ord(char) - 64
    col -= 1
    return (-col - 1 if sign else col), int(row)


def aims(power: str | None, cell: Cell, facing: str) -> tuple[Cell, ...]:
    """Return the cells a card's arrows point at: Switch aims left and right, every other card ahead."""
    if power == "switch":
        return step(cell, rotate(facing, -1)), step(cell, rotate(facing, 1))
    return (step(cell, facing),)


def food_arrows(arrows: tuple[tuple[str, int], ...], facing: str) -> list[tuple[str, int]]:
    """Return a Food side's arrows as table directions, turning its own N-frame to `facing`."""
    quarters = DIRECTIONS.index(facing)
    return [(rotate(direction, quarters), points) for direction, points in arrows]
