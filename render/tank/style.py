"""Hold the 10 Gallon Tank pictures' sizes, colours, fish kinds and the text helpers they share."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from render.common import text_length

Colour = tuple[int, int, int]

WIDTH = 800
MARGIN = 24
WATER = (221, 236, 247)
MUTED = (96, 104, 118)
FAINT = (196, 202, 212)
LINE = (40, 44, 52)
WHITE = (255, 255, 255)
EMPTY = (170, 196, 218)
HIGHLIGHT = (255, 244, 200)
BANNER = (255, 248, 214)
MET = (214, 245, 214)
GOURAMI_NOTE = (255, 228, 214)
# A shade off white: the palette lookup works on 5-6-5 bit colours, where PAPER and WHITE would merge.
BACKGROUND = (240, 243, 247)

# Each kind: short code drawn big on the card, card colour, and a short name that fits on a card.
KINDS: dict[str, tuple[str, Colour, str]] = {
    "guppy": ("Gu", (255, 176, 64), "Guppy"),
    "discus": ("Di", (236, 104, 104), "Discus"),
    "neon": ("Ne", (86, 180, 250), "Neon Tetra"),
    "angelfish": ("An", (132, 206, 112), "Angelfish"),
    "gourami": ("Go", (190, 148, 232), "Gourami"),
    "molly": ("Mo", (255, 234, 92), "Molly"),
    "chest": ("$", (118, 82, 46), "Chest"),
}
PLURALS = {
    "guppy": "Guppies",
    "discus": "Discus",
    "neon": "Neon Tetras",
    "angelfish": "Angelfish",
    "gourami": "Gouramis",
    "molly": "Mollies",
    "chest": "Treasure Chest",
}
PHASES = {"split": "Split phase", "take": "Take phase", "discard": "Take phase", "over": "Game over"}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

text_width = lru_cache(maxsize=4096)(text_length)


def seat_name(names: Sequence[str], seat: int) -> str:
    """Return a seat's name, or "Seat N" when none is known."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def ordinal(n: int) -> str:
    """Return "1st", "2nd", "3rd", "4th"."""
    return ORDINALS.get(n, f"{n}th")


def size_to_fit(text: str, limit: float, size: int, bold: bool = False, smallest: int = 14) -> int:
    """Return the largest font size up to `size` in which `text` fits `limit` pixels."""
    while size > smallest and text_width(text, size, bold) > limit:
        size -= 2
    return size


def wrap(text: str, limit: float, size: int) -> list[str]:
    """Break a text into lines that fit `limit` pixels."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if text_width(trial, size) <= limit or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
