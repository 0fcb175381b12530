"""Handle the school of fish: rectangular groups, their letters and the cut lines between rows and columns."""

from __future__ import annotations

import re
from collections.abc import Iterator

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Rect = tuple[int, int, int, int]
"""A group as (top row, left column, bottom row, right column), the last two exclusive, 0-based."""

_LINE = re.compile(r"^([hv])([0-9]{1,2})$")


def letter(index: int) -> str:
    """Return the label of the `index`-th group made in a round."""
    return LETTERS[index]


def label(name: str) -> str:
    """Return the number players see for a group: A is 1, B is 2, ... (seat chips use letters)."""
    return str(LETTERS.index(name) + 1)


def from_label(raw: str) -> str:
    """Return the group name a player typed: its number ("2") or, as saved logs use, its letter ("B")."""
    text = raw.strip().upper()
    if text.isdigit() and 1 <= int(text) <= len(LETTERS):
        return LETTERS[int(text) - 1]
    return text


def size(rect: Rect) -> int:
    """Return how many cells a group covers."""
    r0, c0, r1, c1 = rect
    return (r1 - r0) * (c1 - c0)


def cells(rect: Rect) -> Iterator[tuple[int, int]]:
    """Yield the (row, column) cells of a group, row by row."""
    r0, c0, r1, c1 = rect
    for r in range(r0, r1):
        for c in range(c0, c1):
            yield r, c


def cut_lines(rect: Rect) -> list[str]:
    """Return the lines that cut a group fully into two: "hK" lies below row K, "vK" right of column K."""
    r0, c0, r1, c1 = rect
    return [f"h{k}" for k in range(r0 + 1, r1)] + [f"v{k}" for k in range(c0 + 1, c1)]


def all_lines(side: int) -> list[str]:
    """Return every cut line of a grid with `side` rows and columns."""
    return [f"h{k}" for k in range(1, side)] + [f"v{k}" for k in range(1, side)]


def parse_line(line: str, side: int) -> tuple[str, int] | None:
    """Return (axis, position) for a line name on this grid, or None if it names no line."""
    match = _LINE.match(line.strip().lower())
    if not match:
        return None
    k = int(match.group(2))
    if not 1 <= k < side:
        return None
    return match.group(1), k


def split(rect: Rect, axis: str, k: int) -> tuple[Rect, Rect]:
    """Cut a group along a line; return (top or left part, bottom or right part)."""
    r0, c0, r1, c1 = rect
    if axis == "h":
        return (r0, c0, k, c1), (k, c0, r1, c1)
    return (r0, c0, r1, k), (r0, k, r1, c1)
