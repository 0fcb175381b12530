"""Draw the close-up of a wide Flippers table: the cells around the last card played, enlarged, Food named.

The close-up centres on the card played this turn, else on the card last put on the table (after its turn
ended); a table no card was put on yet gets none. Once the game is over, the last card says little (it may lie at
the edge of a table whose middle emptied): the close-up frames the Food, where the points were scored, and the
most cards around it.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, draw_text, fit_text
from render.flippers.cards import CELL, EDGE, FOOD_BG, FOOD_INK, INSET, _fit
from render.flippers.palette import _in_palette, _index
from render.flippers.reading import _grid

ZOOM_FROM = 9
"""A table this many columns wide or more gets a close-up: its cards would be under 40 px on a 390 px phone."""
ZOOM_COLS, ZOOM_ROWS = 7, 3
ZOOM_MAX = 3.0


def zooms(view: dict[str, Any], cols: int) -> bool:
    """Return whether a grid `cols` columns wide is shown with a close-up under it: wide, with a card to show."""
    return cols >= ZOOM_FROM and focus(view) is not None


def _window(first: int, count: int, centre: int, size: int) -> tuple[int, int]:
    """Return the first cell and the count of a window of at most `size` cells around `centre` inside the grid."""
    size = min(size, count)
    start = min(max(centre - size // 2, first), first + count - size)
    return start, size


def focus(view: dict[str, Any]) -> tuple[int, int] | None:
    """Return the cell the close-up centres on: the card played this turn, else the card last put on the table
    (where it lies now), else None; at game over, the middle of the window framing the Food and the most cards."""
    if view["final"]:
        return _final_focus(view)
    for key in ("played", "last_card"):
        wanted = view.get(key)
        for card in view["cards"]:
            if wanted is not None and card["id"] == wanted:
                return card["col"], card["row"]
    return None


def _final_focus(view: dict[str, Any]) -> tuple[int, int] | None:
    """Return the middle of the close-up window holding the most Food cards, then the most cards, then nearest
    the middle of the cards (None for a table without cards)."""
    cards = {(c["col"], c["row"]): c["kind"] == "food" for c in view["cards"]}
    if not cards:
        return None
    c0, c1, r0, r1 = _grid(view)
    nc, nr = min(ZOOM_COLS, c1 - c0 + 1), min(ZOOM_ROWS, r1 - r0 + 1)
    mid_c = (min(c for c, _ in cards) + max(c for c, _ in cards)) / 2
    mid_r = (min(r for _, r in cards) + max(r for _, r in cards)) / 2

    def worth(start: tuple[int, int]) -> tuple[int, int, float]:
        inside = [cards[cell] for cell in cards if 0 <= cell[0] - start[0] < nc and 0 <= cell[1] - start[1] < nr]
        away = abs(start[0] + (nc - 1) / 2 - mid_c) + abs(start[1] + (nr - 1) / 2 - mid_r)
        return sum(inside), len(inside), -away

    starts = [(c, r) for c in range(c0, c1 - nc + 2) for r in range(r0, r1 - nr + 2)]
    col, row = max(starts, key=worth)
    return col + nc // 2, row + nr // 2


def zoom_scale(width: int, cols: int) -> float:
    """Return how much the close-up enlarges the cells of a picture `width` wide, its window `cols` cells wide."""
    return min(ZOOM_MAX, (width - 2 * EDGE) / (min(cols, ZOOM_COLS) * CELL))


def zoom_height(view: dict[str, Any], width: int, cols: int, rows: int) -> int:
    """Return the height of the close-up band under a grid (0 when the grid gets none)."""
    if not zooms(view, cols):
        return 0
    return round(min(rows, ZOOM_ROWS) * CELL * zoom_scale(width, cols)) + EDGE


def draw_zoom(
    image: Image.Image, view: dict[str, Any], grid: tuple[int, int, int, int], origin: tuple[int, int], y: int
) -> None:
    """Paste the enlarged close-up at height `y`, writing each Food card's name on it at a size a phone can read."""
    c0, r0, cols, rows = grid
    centre = focus(view)
    if centre is None:
        return
    fc, fr = centre
    wc, nc = _window(c0, cols, fc, ZOOM_COLS)
    wr, nr = _window(r0, rows, fr, ZOOM_ROWS)
    ox, oy = origin
    left, top = ox + (wc - c0) * CELL, oy + (wr - r0) * CELL
    scale = zoom_scale(image.width, cols)
    cell = CELL * scale
    size = (round(nc * cell), round(nr * cell))
    crop = image.crop((left, top, left + nc * CELL, top + nr * CELL)).convert("RGB")
    big = crop.resize(size, Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(big)
    least = -(-image.width // 50)  # 8 px tall on a phone 400 px wide
    for card in view["cards"]:
        col, row = card["col"] - wc, card["row"] - wr
        if card["kind"] != "food" or not (0 <= col < nc and 0 <= row < nr):
            continue
        x0, y0 = col * cell, row * cell
        # The side letter moves up the middle column, clear of the points; the name runs across the middle.
        draw.rectangle((x0 + 30 * scale, y0 + 26 * scale, x0 + 54 * scale, y0 + 58 * scale), fill=FOOD_BG)
        face = (x0 + cell / 2, y0 + 22 * scale)
        draw_text(draw, face, card["face"], round(22 * scale), FOOD_INK, bold=True, anchor="mm")
        room = (CELL - 2 * INSET - 10) * scale
        text_size = _fit(card["name"], max(least, round(12 * scale)), room, floor=least)
        name = fit_text(card["name"], text_size, room, True)
        mid = y0 + 44 * scale
        draw.rectangle((x0 + cell / 2 - room / 2, mid - 6 * scale, x0 + cell / 2 + room / 2, mid + 6 * scale), FOOD_BG)
        draw_text(draw, (x0 + cell / 2, mid), name, text_size, INK, bold=True, anchor="mm")
    x = (image.width - size[0]) // 2
    ImageDraw.Draw(image).rectangle(
        (x - 3, y + EDGE // 2 - 3, x + size[0] + 2, y + EDGE // 2 + size[1] + 2), outline=_index(INK), width=2
    )
    image.paste(_in_palette(big), (x, y + EDGE // 2))
