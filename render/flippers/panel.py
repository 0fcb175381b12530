"""Draw the points panel under the Flippers table and size the headline and panel for the picture's width."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.words import join_list
from i18n import _, pgettext
from render.common import fit_text, text_length
from render.flippers.cards import FAINT, OPEN, _fit
from render.flippers.palette import _index
from render.flippers.reading import _activation_line, _columns, _letters, _name, _row_numbers, _sides, _team
from render.flippers.sprites import _measure, _named, _paste, _put, _seat_badge, _word


def _geometry(view: dict[str, Any], width: int) -> tuple[int, int, int, list[float], float]:
    """Return the panel's text size, row height, heading size, each number column's right edge and where names end."""
    headings = _columns(view)
    size, row = _panel_size(width)
    small = max(round(size * 0.6), min_text(width))
    widths = [max(_measure(h, small), _measure("888", size, True)) + 14 for h in headings]
    right: float = width - 14
    edges = []
    for w in reversed(widths):
        edges.append(right)
        right -= w
    edges.reverse()
    return size, row, small, edges, right - 8


def _split(name: str, size: int, bold: bool, room: float) -> list[str]:
    """Return a name on one line, or on two when it is too long (at a space if it can), never cut short."""
    if text_length(name, size, bold) <= room:
        return [name]
    cuts = [i for i, ch in enumerate(name) if ch == " " and text_length(name[:i], size, bold) <= room]
    cut = cuts[-1] if cuts else max(1, max(i for i in range(1, len(name)) if text_length(name[:i], size, bold) <= room))
    head, tail = name[:cut].rstrip(), name[cut:].lstrip()
    return [head, fit_text(tail, size, room, bold)]


def _seat_rows(view: dict[str, Any], names: Sequence[str], width: int) -> list[tuple[str, list[str], str, bool]]:
    """Return each seat's row: its turn mark, its name on one or two lines, what follows the name, and boldness."""
    size, row, _small, _edges, name_right = _geometry(view, width)
    rows = []
    for s in view["seats"]:
        seat = s["seat"]
        bold = seat == view.get("current") or seat in view["winners"]
        prefix = "▶ " if seat == view.get("current") and not view["final"] else ""
        resigned = " " + pgettext("seat", "resigned") if s["resigned"] else ""
        star = " ★" if seat in view["winners"] else ""
        suffix = " " + _("({species})", species=s["short"]) + resigned + star
        x = 14 + row + _measure(prefix, size, bold)
        name = _name(names, seat)
        if text_length(name, size, bold) + _measure(suffix, size, bold) > name_right - x:
            # The colour and letter already say the team: give its room to the name.
            suffix = resigned + star
        lines = _split(name, size, bold, max(name_right - x - _measure(suffix, size, bold), 40))
        rows.append((prefix, lines, suffix, bold))
    return rows


def _panel(image: Image.Image, view: dict[str, Any], names: Sequence[str], top: int) -> None:
    """Draw the score table under the grid: a row per seat (and per Team Up side), numbers in columns."""
    draw = ImageDraw.Draw(image)
    width = image.width
    size, row, small, edges, name_right = _geometry(view, width)
    for heading, x in zip(_columns(view), edges, strict=True):
        _put(image, _word(heading, small, fill=FAINT), x, top + 12, "r")
    y = top + 24
    letters = _letters(view)
    for s, (prefix, lines, suffix, bold) in zip(view["seats"], _seat_rows(view, names, width), strict=True):
        seat = s["seat"]
        height = row + (len(lines) - 1) * (size + 4)
        middle = y + row / 2
        _paste(image, _seat_badge(seat, letters[seat], row - 8), 14, y + 4)
        x = 14 + row
        if prefix:
            _put(image, _word(prefix, size, bold), x, middle)
            x += _measure(prefix, size, bold)
        for k, line in enumerate(lines):
            _put(image, _named(line, size, bold), x, middle + k * (size + 4))
        x += text_length(lines[-1], size, bold)
        if suffix and name_right - x > 20:
            last = middle + (len(lines) - 1) * (size + 4)
            _put(image, _word(fit_text(suffix, size, name_right - x, bold), size, bold), x, last)
        for number, edge in zip(_row_numbers(view, s), edges, strict=True):
            _put(image, _word(number, size, True), edge, middle, "r")
        y += height
    for side, members, total, end in _sides(view, names):
        middle = y + row / 2
        label_text = _team(members) + (
            " ★" if any(s["seat"] in view["winners"] for s in view["seats"] if s["side"] == side) else ""
        )
        # A long side name is drawn a little smaller before it is shortened.
        label_size = _fit(label_text, size, name_right - 14, True, floor=max(min_text(width), round(size * 0.75)))
        label_text = fit_text(label_text, label_size, name_right - 14, True)
        _put(image, _named(label_text, label_size, True), 14, middle)
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
    return _("Food: {cards}", cards=join_list(foods)) if foods else ""


def _title_size(width: int) -> int:
    """Return the headline's font size: larger on a wider picture, to read as well on a phone."""
    return max(30, min(44, round(width * 0.038)))


def _header_height(view: dict[str, Any], width: int) -> int:
    """Return the height of the lines above the grid: headline, supply and what is still to do."""
    size = _title_size(width)
    lines = bool(_activation_line(view)) + bool(food_line(view))
    return round(size * 2.3) + round(size * 0.95) * lines


def _panel_height(view: dict[str, Any], width: int, names: Sequence[str] = ()) -> int:
    """Return the height of the score table (a long name takes a second line)."""
    size, row = _panel_size(width)
    extra = sum(len(lines) - 1 for _prefix, lines, _suffix, _bold in _seat_rows(view, names, width)) * (size + 4)
    return 24 + row * (len(view["seats"]) + len(_sides(view, []))) + extra + 12
