"""Draw the points panel under the Flippers table and size the headline and panel for the picture's width."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import fit_text, text_length
from render.flippers.cards import FAINT, OPEN
from render.flippers.palette import _index
from render.flippers.reading import _activation_line, _columns, _letters, _name, _row_numbers, _sides
from render.flippers.sprites import _measure, _named, _paste, _put, _seat_badge, _word


def _panel(image: Image.Image, view: dict[str, Any], names: Sequence[str], top: int) -> None:
    """Draw the score table under the grid: a row per seat (and per Team Up side), numbers in columns."""
    draw = ImageDraw.Draw(image)
    width = image.width
    headings = _columns(view)
    size, row = _panel_size(width)
    small = max(round(size * 0.6), min_text(width))
    widths = [max(_measure(h, small), _measure("888", size, True)) + 14 for h in headings]
    right = width - 14
    edges = []
    for w in reversed(widths):
        edges.append(right)
        right -= w
    edges.reverse()
    name_right = right - 8
    for heading, x in zip(headings, edges, strict=True):
        _put(image, _word(heading, small, fill=FAINT), x, top + 12, "r")
    y = top + 24
    letters = _letters(view)
    for s in view["seats"]:
        seat = s["seat"]
        middle = y + row / 2
        _paste(image, _seat_badge(seat, letters[seat], row - 8), 14, y + 4)
        bold = seat == view.get("current") or seat in view["winners"]
        prefix = "▶ " if seat == view.get("current") and not view["final"] else ""
        suffix = f" ({s['short']})" + (" resigned" if s["resigned"] else "")
        suffix += " ★" if seat in view["winners"] else ""
        x = 14 + row
        if prefix:
            _put(image, _word(prefix, size, bold), x, middle)
            x += _measure(prefix, size, bold)
        name = _name(names, seat)
        if text_length(name, size, bold) + _measure(suffix, size, bold) > name_right - x:
            # The colour and letter already say the team: give its room to the name.
            suffix = (" resigned" if s["resigned"] else "") + (" ★" if seat in view["winners"] else "")
        who = fit_text(name, size, max(name_right - x - _measure(suffix, size, bold), 40), bold)
        _put(image, _named(who, size, bold), x, middle)
        x += text_length(who, size, bold)
        if suffix and name_right - x > 20:
            _put(image, _word(fit_text(suffix, size, name_right - x, bold), size, bold), x, middle)
        for number, edge in zip(_row_numbers(view, s), edges, strict=True):
            _put(image, _word(number, size, True), edge, middle, "r")
        y += row
    for side, members, total, end in _sides(view, names):
        middle = y + row / 2
        label_text = f"Team {members}" + (
            " ★" if any(s["seat"] in view["winners"] for s in view["seats"] if s["side"] == side) else ""
        )
        label_text = fit_text(label_text, size, name_right - 14, True)
        _put(image, _named(label_text, size, True), 14, middle)
        numbers = [str(total)] if view["final"] else [str(total), *([str(end)] if end is not None else [])]
        columns = edges[-1:] if view["final"] else edges[: len(numbers)]
        for number, edge in zip(numbers, columns, strict=True):
            _put(image, _word(number, size, True), edge, middle, "r")
        draw.line((14, y + 1, width - 14, y + 1), fill=_index(OPEN), width=2)
        y += row


def _panel_size(width: int) -> tuple[int, int]:
    """Return the score table's font size and row height: larger on a wider picture, to read as well on a phone."""
    size = max(24, min(40, round(width * 0.035)))
    return size, size + 12


def min_text(width: int) -> int:
    """Return the smallest text size that still reads 8 px tall when a picture `width` wide is shown 400 px wide."""
    return -(-width // 50)


def food_line(view: dict[str, Any]) -> str:
    """Return the line naming each Food card on the table and its cell ("Food: Krill N15, Squid O15")."""
    foods = [f"{c['name']} {c['cell']}" for c in view["cards"] if c["kind"] == "food"]
    return ("Food: " + ", ".join(foods)) if foods else ""


def _title_size(width: int) -> int:
    """Return the headline's font size: larger on a wider picture, to read as well on a phone."""
    return max(30, min(44, round(width * 0.038)))


def _header_height(view: dict[str, Any], width: int) -> int:
    """Return the height of the lines above the grid: headline, supply and what is still to do."""
    size = _title_size(width)
    lines = bool(_activation_line(view)) + bool(food_line(view))
    return round(size * 2.3) + round(size * 0.95) * lines


def _panel_height(view: dict[str, Any], width: int) -> int:
    """Return the height of the score table."""
    return 24 + _panel_size(width)[1] * (len(view["seats"]) + len(_sides(view, []))) + 12
