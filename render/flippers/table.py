"""Lay out and draw the public Flippers table picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from PIL import Image

from engine.flippers.table import parse_label
from i18n import ngettext
from render.common import INK, PAPER, fit_text, seat_colour
from render.flippers.cards import CELL, EDGE, FAINT, INSET, MARKER_R, MIN_WIDTH, Box, _corner, _fit, _free_corners
from render.flippers.palette import _encode, _index, _palette
from render.flippers.panel import _header_height, _panel, _panel_height, _title_size, food_line, min_text
from render.flippers.reading import _activation_line, _grid, _headline, _leader_cells, _letters, _marker_cells
from render.flippers.sprites import _edge, _empty, _explorer, _food, _marker, _named, _paste, _put, _word
from render.flippers.zoom import draw_zoom, zoom_height, zooms


class Layout(NamedTuple):
    """Where a table picture puts things: its width, the header's height and the grid's first cell and origin."""

    width: int
    header: int
    first_col: int
    first_row: int
    cols: int
    rows: int
    left: int
    top: int

    def cell_box(self, cell: str) -> Box:
        """Return the pixel box of a labelled cell."""
        col, row = parse_label(cell) or (self.first_col, self.first_row)
        x, y = self.left + (col - self.first_col) * CELL, self.top + (row - self.first_row) * CELL
        return x, y, x + CELL, y + CELL


def layout(view: dict[str, Any]) -> Layout:
    """Return the layout of the table picture for `view`: the grid cropped to the cards plus one ring."""
    c0, c1, r0, r1 = _grid(view)
    cols, rows = c1 - c0 + 1, r1 - r0 + 1
    grid_w = cols * CELL + 2 * EDGE
    width = max(MIN_WIDTH, grid_w)
    header = _header_height(view, width)
    return Layout(width, header, c0, r0, cols, rows, (width - grid_w) // 2 + EDGE, header + EDGE)


def draw_table(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the table: cards on a labelled grid, markers, Leader cells, the score table and whose turn it is."""
    at = layout(view)
    c0, r0, cols, rows, width, header = at.first_col, at.first_row, at.cols, at.rows, at.width, at.header
    grid_h = rows * CELL + 2 * EDGE
    zoom_h = zoom_height(view, width, cols, rows)
    image = Image.new("P", (width, header + grid_h + zoom_h + _panel_height(view, width, names)), _index(PAPER))
    image.putpalette(_palette().getpalette() or [])
    # Everything is pasted from pieces drawn once in full colour and mapped onto the palette (cards, cells,
    # words, names), so the picture itself never needs mapping.
    headline = _headline(view, names)
    title = _title_size(width)
    least = min_text(width)
    size = _fit(headline, title, width - 24, floor=least)
    _put(image, _named(fit_text(headline, size, width - 24, True), size, True), width / 2, title * 0.85, "m")
    supply_text = ngettext("Supply: {n} point", "Supply: {n} points", view["supply"])
    supply = _word(
        fit_text(supply_text, max(least, round(title * 0.6)), width - 24), max(least, round(title * 0.6)), fill=FAINT
    )
    _put(image, supply, width / 2, title * 1.9, "m")
    y = title * 2.75
    for text, bold in ((food_line(view), False), (_activation_line(view), True)):
        if text:
            size = _fit(text, round(title * 0.7), width - 24, bold, floor=least)
            _put(image, _word(fit_text(text, size, width - 24, bold), size, bold), width / 2, y, "m")
            y += title * 0.95
    ox, oy = at.left, at.top

    def origin(col: int, row: int) -> tuple[int, int]:
        return ox + (col - c0) * CELL, oy + (row - r0) * CELL

    letters_strip, numbers_strip = _edge(c0, cols, True), _edge(r0, rows, False)
    for y in (oy - EDGE, oy + rows * CELL):
        _paste(image, letters_strip, ox, y)
    for x in (ox - EDGE, ox + cols * CELL):
        _paste(image, numbers_strip, x, oy)
    marked = _marker_cells(view)
    if not view["final"]:
        leader_colour = seat_colour(view["current"]) if view.get("current") is not None else INK
        for cells, colour in ((view["open_cells"], None), (_leader_cells(view), leader_colour)):
            for text in cells:
                spot = parse_label(text)
                if spot is not None:
                    _paste(image, _empty(text, colour, spot in marked), *origin(*spot))
    letters = _letters(view)
    name_size = 0 if zooms(view, cols) else least  # a wide table names its Food in the close-up, where it reads
    due, done = set(view.get("to_activate", [])), set(view.get("activated", []))
    occupied: dict[tuple[int, int], tuple[tuple[str, int], ...] | None] = {}
    for card in view["cards"]:
        cell = (card["col"], card["row"])
        occupied[cell] = None
        if card["kind"] == "food":
            arrows = occupied[cell] = tuple((a["dir"], a["points"]) for a in card["arrows"])
            sprite = _food(card["name"], card["face"], arrows, cell in marked, name_size)
        else:
            team, cid = card["team"], card["id"]
            state = "due" if cid in due else "done" if cid in done else ""
            sprite = _explorer(
                team, letters[team], card["power"], card["power_name"], card["facing"], card["face"], state
            )
        _paste(image, sprite, *origin(card["col"], card["row"]))
    for (col, row), teams in marked.items():
        x, y = origin(col, row)
        food = occupied.get((col, row))
        if food is not None:
            # On a Food card: in corners that hold no points (else the middle), never over a number.
            spots = [(x + a, y + b) for a, b in (_corner(c, MARKER_R - 1) for c in _free_corners(food))]
            spots = spots or [(x + CELL / 2, y + CELL / 2)]
        elif (col, row) in occupied:
            # On an Explorer: over its icon (a blocked card cannot act), side by side when there are two.
            middle = y + CELL / 2
            spots = [(x + CELL / 2, middle), (x + CELL / 2 - 16, middle), (x + CELL / 2 + 16, middle)]
            if len(teams) > 1:
                spots = spots[1:]
        else:
            # Waiting on an empty cell: above the cell's label.
            top = y + INSET + MARKER_R
            spots = [(x + CELL / 2, top), (x + CELL / 2 - 16, top), (x + CELL / 2 + 16, top)]
            if len(teams) > 1:
                spots = spots[1:]
        for k, (team, letter) in enumerate(teams):
            radius = MARKER_R - 3 if food is not None else MARKER_R
            sprite, mask = _marker(team, letter, radius)
            cx, cy = spots[k % len(spots)]
            image.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), mask)
    if zoom_h:
        draw_zoom(image, view, (c0, r0, cols, rows), (ox, oy), header + grid_h)
    _panel(image, view, names, header + grid_h + zoom_h)
    return image


def render_table(view: dict[str, Any], names: list[str]) -> bytes:
    """Return the table as a PNG."""
    return _encode(draw_table(view, names))
