"""Hold the 10 Gallon Tank pictures' sizes, colours, fish kinds and the text helpers they share."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from i18n import N_, _, pgettext
from render.breaks import GLUE
from render.common import text_length, wrap_text

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

# Each kind: short code drawn big on the card, card colour, and a short name that fits on a card. Codes and short
# names are translated where they are drawn (`code`, `short_name`).
# TRANSLATORS: fish codes (Gu, Di, Ne, An, Go, Mo) are drawn big on cards: one or two letters from your language's
# fish name, each different; the names beside them are printed on a card about 110 px wide (shorten if long).
KINDS: dict[str, tuple[str, Colour, str]] = {
    "guppy": (N_("Gu"), (255, 176, 64), N_("Guppy")),
    "discus": (N_("Di"), (236, 104, 104), N_("Discus")),
    "neon": (N_("Ne"), (86, 180, 250), N_("Neon Tetra")),
    "angelfish": (N_("An"), (132, 206, 112), N_("Angelfish")),
    "gourami": (N_("Go"), (190, 148, 232), N_("Gourami")),
    "molly": (N_("Mo"), (255, 234, 92), N_("Molly")),
    "chest": ("$", (118, 82, 46), N_("Chest")),
}


def code(kind: str) -> str:
    """Return the one- or two-letter code a fish kind's cards and chips show, in the current language."""
    letters = KINDS[kind][0] if kind in KINDS else "?"
    return letters if letters in ("$", "?") else _(letters)


def short_name(kind: str) -> str:
    """Return the fish name printed at the foot of a card (short enough to fit), in the current language."""
    name = KINDS[kind][2] if kind in KINDS else kind
    return _(name) if kind in KINDS else name


PHASES = {"split": N_("Split phase"), "take": N_("Take phase"), "discard": N_("Take phase"), "over": N_("Game over")}


def phase_name(phase: str) -> str:
    """Return the name of a round's phase in the current language."""
    return _(PHASES[phase]) if phase in PHASES else phase


text_width = lru_cache(maxsize=4096)(text_length)


def seat_name(names: Sequence[str], seat: int) -> str:
    """Return a seat's name, or "Seat N" when none is known."""
    return names[seat] if 0 <= seat < len(names) else _("Seat {number}", number=seat + 1)


def ordinal(n: int) -> str:
    """Return a place in the current language: "1st", "2nd", "3rd", "4th"."""
    # TRANSLATORS: a player's place in the final standings, shown as "2nd of 4".
    places = {1: pgettext("place", "1st"), 2: pgettext("place", "2nd"), 3: pgettext("place", "3rd")}
    return places.get(n) or pgettext("place", "{n}th", n=n)


def size_to_fit(text: str, limit: float, size: int, bold: bool = False, smallest: int = 14) -> int:
    """Return the largest font size up to `size` in which `text` fits `limit` pixels."""
    while size > smallest and text_width(text, size, bold) > limit:
        size -= 2
    return size


def wrap(text: str, limit: float, size: int, bold: bool = False, keep: Sequence[str] = ()) -> list[str]:
    """Break a text into lines that fit `limit` pixels, as `wrap_text` does, never leaving a line out.

    A separator dot ends a line, never starts one; the phrases of `keep` (a card's name with its code) stay on one
    line. Japanese breaks between phrases.
    """
    if not text.strip():
        return []
    glued = text.replace(" · ", GLUE + "· ")
    return wrap_text(glued, size, limit, bold, max_lines=len(text), keep=keep)
