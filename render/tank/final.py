"""Draw the Tank final scores: every player by rank with points per fish kind, chest and goal."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from i18n import _, ngettext
from render.common import INK, draw_text, encode_png, fit_named_lines
from render.tank.paint import chip, drawn, flatten, kind_chip, paste, put, rounded
from render.tank.style import (
    BACKGROUND,
    FAINT,
    HIGHLIGHT,
    MARGIN,
    MET,
    MUTED,
    WHITE,
    WIDTH,
    Colour,
    code,
    seat_name,
    text_width,
    wrap,
)


@cache
def _goal_chip(met: bool, bg: Colour) -> Image.Image:
    """Draw the goal cell's tick or dash."""
    sprite = rounded((46, 46), 9, MET if met else FAINT, INK, 2)
    draw_text(ImageDraw.Draw(sprite), (23, 23), "✓" if met else "–", 28, INK, bold=True, anchor="mm")
    return flatten(sprite, bg)


def draw_final(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the final scoring: every player by rank with points per fish type, chest and goal."""
    return drawn(lambda image, draw: _final_parts(image, draw, view, names), final_height(view, names))


FINAL_COLUMNS = 4


NAME_LINE = 32  # the step between the two lines of a name too long for one


def _name_lines(row: dict[str, Any], names: Sequence[str]) -> tuple[int, list[str]]:
    """Return the font size and the lines of a card's "1. Name · winner": whole, on two lines if need be."""
    name = seat_name(names, row["seat"])

    def line(who: str) -> str:
        if row["winner"]:
            # TRANSLATORS: a final scores card's heading; the no-break spaces around "·" keep the tag with the name.
            return _("{rank}. {name}\u00a0·\u00a0winner", rank=row["rank"], name=who)
        if row["detail"].get("resigned"):
            return _("{rank}. {name}\u00a0·\u00a0resigned", rank=row["rank"], name=who)
        return _("{rank}. {name}", rank=row["rank"], name=who)

    room = WIDTH - 2 * MARGIN - 80 - text_width(_total(row), 34, True) - 24
    return fit_named_lines(line, name, room, (30, 26), bold=True)


def _total(row: dict[str, Any]) -> str:
    """Return a card's total, e.g. "54 pts"."""
    return ngettext("{n} pt", "{n} pts", row["total"])


def _final_card_height(view: dict[str, Any], row: dict[str, Any], names: Sequence[str]) -> int:
    """Return the height of one player's card in the final scores: a second name line makes it taller."""
    cells = len(view["final"]["kinds"]) + 1
    extra = NAME_LINE * (len(_name_lines(row, names)[1]) - 1)
    return 64 + extra + (cells + FINAL_COLUMNS - 1) // FINAL_COLUMNS * 60 + 12


def _final_text(view: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Return the wrapped goal lines and legend lines of the final scores."""
    goal = view["goal"]
    line = _("Goal: {name} (+{points}) · {text}", name=goal["name"], points=goal["points"], text=goal["text"])
    head = wrap(line, WIDTH - 2 * MARGIN, 24, keep=[goal["name"]])
    keys = [f"{code(k['key'])} {k['plural']}" for k in view["final"]["kinds"]]  # "Ne Neon Tetras": one line
    legend = _("Points per type, ×cards held. {kinds} · ✓ goal met", kinds=" · ".join(keys))
    return head, wrap(legend, WIDTH - 2 * MARGIN, 22, keep=keys)


def final_height(view: dict[str, Any], names: Sequence[str]) -> int:
    """Return the height of the final scores picture, computed the way it is laid out."""
    head, legend = _final_text(view)
    height = MARGIN + 54 + 32 * len(head) + 10
    height += sum(_final_card_height(view, row, names) + 12 for row in view["final"]["standings"])
    height += 30 * len(legend)
    return height + (36 if view["final"].get("tiebreak") else 0) + MARGIN


def _final_parts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str]) -> int:
    """Draw the final scores from the top; return the y of the page's bottom edge."""
    final = view["final"]
    head, legend = _final_text(view)
    y = MARGIN
    put(image, (MARGIN, y), _("Game over · Final scores"), 38, INK, bold=True, anchor="la", bg=BACKGROUND)
    y += 54
    for line in head:
        put(image, (MARGIN, y), line, 24, MUTED, anchor="la", bg=BACKGROUND)
        y += 32
    y += 10
    columns = FINAL_COLUMNS
    chip_w = (WIDTH - 2 * MARGIN - 24) / columns
    cells = [*(k["key"] for k in final["kinds"]), "goal"]
    for row in final["standings"]:
        height = _final_card_height(view, row, names)
        seat = row["seat"]
        detail = row["detail"]
        draw.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + height),
            radius=14,
            fill=HIGHLIGHT if row["winner"] else WHITE,
            outline=INK,
            width=3,
        )
        back = HIGHLIGHT if row["winner"] else WHITE
        chip(image, seat, MARGIN + 34, y + 34, 20, back)
        put(image, (WIDTH - MARGIN - 16, y + 34), _total(row), 34, INK, bold=True, anchor="rm", bg=back)
        size, lines = _name_lines(row, names)
        for i, line in enumerate(lines):
            put(image, (MARGIN + 66, y + 34 + NAME_LINE * i), line, size, INK, bold=True, bg=back)
        below = y + 64 + NAME_LINE * (len(lines) - 1)
        for i, key in enumerate(cells):
            x = MARGIN + 12 + (i % columns) * chip_w
            top = below + (i // columns) * 60
            if key == "goal":
                paste(image, _goal_chip(bool(detail.get("goal_met")), back), x, top)
                points, extra = detail["goal"], ""
            else:
                paste(image, kind_chip(key, 46, back), x, top)
                points = detail[key]
                extra = f"×{detail['counts'].get(key, 0)}" if key != "chest" else ""
            put(image, (x + 56, top + 23), str(points), 30, INK, bold=True, bg=back)
            if extra:
                put(image, (x + 62 + text_width(str(points), 30, True), top + 25), extra, 24, MUTED, bg=back)
        y += height + 12
    for line in legend:
        put(image, (MARGIN, y), line, 22, MUTED, anchor="la", bg=BACKGROUND)
        y += 30
    if final.get("tiebreak"):
        put(image, (MARGIN, y + 4), final["tiebreak"], 24, INK, bold=True, anchor="la", bg=BACKGROUND)
        y += 36
    return y + MARGIN


def render_final(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the final scoring as PNG."""
    return encode_png(draw_final(view, names))
