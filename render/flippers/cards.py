"""Draw Flippers cards and cells in full colour: Explorers, Food, Block markers, open and Leader cells, hand cards."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.flippers.cards import MINUS_POINTS, PLUS_POINTS
from engine.flippers.table import STEP, rotate
from render.common import INK, PAPER, font, seat_colour, text_length, text_on

# The table: one cell per card; a card fills the cell less a gap, where the arrow tabs sit.
CELL = 84


INSET = 5


CARD = CELL - 2 * INSET


LABEL = 16  # Explorer power names and Food names


NUMBER = 20  # the points beside a Food arrow


TAB_HALF = 13


TAB_SHIFT = 19  # each tab sits this far to its right of the edge's middle, so facing tabs never meet


MARKER_R = 13


EDGE = 30


MIN_WIDTH = 640


BACK = (64, 72, 88)


FOOD_BG = (236, 244, 250)


FOOD_INK = (0, 80, 140)


OPEN = (206, 214, 224)


FAINT = (112, 122, 138)


HIGHLIGHT = INK


TAB_DOWN = (150, 158, 172)


ICONS = {
    "leader": "♛",
    "flip": "◩",
    "bump": "⇉",
    "switch": "⇄",
    "replace": "⇵",
    "turn": "↻",
    "plus": f"+{PLUS_POINTS}",
    "minus": f"−{MINUS_POINTS}",
    "block": "⊘",
}


# Where each arrow's tab (and a Food arrow's points) sits: the corner region it turns toward.
CORNER_OF = {"N": "NE", "E": "SE", "S": "SW", "W": "NW"}


Box = tuple[int, int, int, int]


def _centred(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Any, bold: bool = False
) -> None:
    """Draw game text (never a player's name) centred on `xy`."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def _fit(text: str, size: int, width: float, bold: bool = True) -> int:
    """Return the largest font size up to `size` at which `text` (which may hold names) fits in `width` pixels."""
    while size > 9 and text_length(text, size, bold) > width:
        size -= 1
    return size


def _tab(draw: ImageDraw.ImageDraw, box: Box, direction: str, fill: Any, half: int = TAB_HALF) -> None:
    """Draw an arrow tab on the card edge facing `direction`, shifted to its right, its tip in the gap."""
    x0, y0, x1, y1 = box
    dx, dy = STEP[direction]
    sx, sy = STEP[rotate(direction)]
    mx = (x0 + x1) / 2 + dx * (x1 - x0) / 2 + sx * TAB_SHIFT
    my = (y0 + y1) / 2 + dy * (y1 - y0) / 2 + sy * TAB_SHIFT
    depth, out = 4, INSET  # the tip stops at the cell's edge, so each cell is one opaque tile
    shape = [(-depth, -half), (0, -half), (out, 0), (0, half), (-depth, half)]
    points = [(mx + a * dx - b * dy, my + a * dy + b * dx) for a, b in shape]
    draw.polygon(points, fill=fill, outline=PAPER, width=1)


def _tile(state: str = "") -> tuple[Image.Image, ImageDraw.ImageDraw, Box]:
    """Return a blank cell on paper, its pen and the card's box; "due" frames the card in a dark ring."""
    image = Image.new("RGB", (CELL, CELL), PAPER)
    draw = ImageDraw.Draw(image)
    box = (INSET, INSET, CELL - INSET, CELL - INSET)
    if state == "due":
        draw.rounded_rectangle((1, 1, CELL - 2, CELL - 2), radius=11, fill=HIGHLIGHT)
    return image, draw, box


def _badge(draw: ImageDraw.ImageDraw, box: Box, state: str) -> None:
    """Draw the round badge saying a card is still to activate (!) or already activated (✓)."""
    if state:
        x1, y0 = box[2] - 2, box[1] + 2
        draw.ellipse((x1 - 20, y0, x1, y0 + 20), fill=INK)
        _centred(draw, (x1 - 10, y0 + 10.5), "!" if state == "due" else "✓", 14, PAPER, bold=True)


def _draw_explorer(
    team: int, letter: str, power: str, power_name: str, facing: str, face: str, state: str
) -> Image.Image:
    """Draw an Explorer card's cell ("due": still to activate, "done": activated this turn)."""
    image, draw, box = _tile(state)
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    colour = seat_colour(team)
    if face == "down":
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline=colour, width=5)
        _centred(draw, (cx, cy), letter, 30, colour, bold=True)
        _tab(draw, box, facing, TAB_DOWN, half=6)
        _badge(draw, box, state)
        return image
    ink = text_on(colour)
    draw.rounded_rectangle(box, radius=8, fill=colour, outline=INK, width=2)
    _centred(draw, (x0 + 11, y0 + 12), letter, 17, ink, bold=True)
    icon = ICONS[power]
    _centred(draw, (cx + 2, cy + 2), icon, 22 if len(icon) > 1 else 30, ink, bold=True)
    _centred(draw, (cx, y1 - 10), power_name, _fit(power_name, LABEL, CARD - 4), ink, bold=True)
    for quarter in (-1, 1) if power == "switch" else (0,):
        _tab(draw, box, rotate(facing, quarter), INK)
    _badge(draw, box, state)
    return image


def _food_lines(name: str) -> list[str]:
    """Return a Food name as one line, or two when it is too wide (at a space, else before "fish")."""
    if font(LABEL, True).getlength(name) <= CARD - 4:
        return [name]
    if " " in name:
        head, _, tail = name.rpartition(" ")
        return [head, tail]
    cut = name.lower().rfind("fish")
    cut = cut if cut > 0 else (len(name) + 1) // 2
    return [name[:cut], name[cut:]]


def _free_corners(arrows: tuple[tuple[str, int], ...]) -> list[str]:
    """Return the corners of a Food card that hold no arrow's points, in the order they are used."""
    used = {CORNER_OF[direction] for direction, _ in arrows}
    return [corner for corner in ("NW", "SE", "SW", "NE") if corner not in used]


def _corner(corner: str, inset: float) -> tuple[float, float]:
    """Return a point `inset` pixels in from both edges of a card's corner, in cell coordinates."""
    near, far = INSET + inset, CELL - INSET - inset
    return (far if "E" in corner else near), (far if "S" in corner else near)


def _draw_food(name: str, face: str, arrows: tuple[tuple[str, int], ...], marked: bool = False) -> Image.Image:
    """Draw a Food card's cell: its name, its side, and each arrow's tab with the points beside it."""
    image, draw, box = _tile()
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    draw.rounded_rectangle(box, radius=8, fill=FOOD_BG, outline=FOOD_INK, width=3)
    lines = _food_lines(name)
    size = min(_fit(line, LABEL, CARD - 4) for line in lines)
    for k, line in enumerate(lines):
        _centred(draw, (cx, cy + (k - (len(lines) - 1) / 2) * (size + 2)), line, size, FOOD_INK, bold=True)
    for direction, points in arrows:
        dx, dy = STEP[direction]
        sx, sy = STEP[rotate(direction)]
        _tab(draw, box, direction, FOOD_INK)
        reach = CARD / 2 - 11
        spot = (cx + dx * reach + sx * TAB_SHIFT, cy + dy * reach + sy * TAB_SHIFT)
        _centred(draw, spot, str(points), NUMBER, INK, bold=True)
    free = _free_corners(arrows)[1 if marked else 0 :]
    spot = _corner(free[0], 9) if free else (cx, cy + (len(lines) / 2) * (size + 2) + 6)
    _centred(draw, spot, face, 12, FOOD_INK, bold=True)
    return image


def _draw_marker(team: int, letter: str, radius: int = MARKER_R) -> Image.Image:
    """Draw a team's Block marker: an octagon in its colour with its letter, ringed in paper to stand out."""
    size = 2 * radius + 7
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2 - 0.5

    def octagon(r: float) -> list[tuple[float, float]]:
        k = r * 0.42
        points = [(c - k, c - r), (c + k, c - r), (c + r, c - k), (c + r, c + k)]
        return [*points, (c + k, c + r), (c - k, c + r), (c - r, c + k), (c - r, c - k)]

    colour = seat_colour(team)
    draw.polygon(octagon(radius + 2), fill=PAPER)
    draw.polygon(octagon(radius), fill=colour, outline=INK, width=3)
    _centred(draw, (c, c + 0.5), letter, round(radius * 1.2), text_on(colour), bold=True)
    return image


def _draw_empty(text: str, colour: tuple[int, int, int] | None, low: bool = False) -> Image.Image:
    """Draw an open cell (its label in a faint frame), or a Leader cell framed in the placing seat's colour.

    `low` puts the label near the bottom, leaving the top for a Block marker waiting on the cell.
    """
    image = Image.new("RGB", (CELL, CELL), PAPER)
    draw = ImageDraw.Draw(image)
    box = (INSET, INSET, CELL - INSET, CELL - INSET)
    y = CELL - INSET - 13 if low else CELL / 2
    if colour is None:
        draw.rounded_rectangle(box, radius=8, outline=OPEN, width=2)
        _centred(draw, (CELL / 2, y), text, _fit(text, 16, CARD - 6, False), FAINT)
    else:
        tint = tuple(round(p + (c - p) * 0.3) for c, p in zip(colour, PAPER, strict=True))
        draw.rounded_rectangle(box, radius=8, fill=tint, outline=colour, width=4)
        _centred(draw, (CELL / 2, y), text, _fit(text, 18, CARD - 8), INK, bold=True)
    return image


HAND_CARD, HAND_PAD, HAND_TOP = 300, 24, 74


@lru_cache(maxsize=256)
def _hand_card(team: int, letter: str, card_id: str, power: str, power_name: str, text: str) -> Image.Image:
    """Draw one card in hand, large, with what its power does wrapped inside the card."""
    pad = 14
    image = Image.new("RGBA", (HAND_CARD + 2 * pad, HAND_CARD + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (pad, pad, pad + HAND_CARD, pad + HAND_CARD)
    colour = seat_colour(team)
    ink = text_on(colour)
    draw.rounded_rectangle(box, radius=18, fill=colour, outline=INK, width=3)
    x0, y0 = pad, pad
    draw.text((x0 + 18, y0 + 28), letter, font=font(36, bold=True), fill=ink, anchor="lm")
    draw.text((x0 + HAND_CARD - 18, y0 + 28), card_id, font=font(20), fill=ink, anchor="rm")
    icon = ICONS[power]
    _centred(draw, (x0 + HAND_CARD / 2, y0 + 86), icon, 60 if len(icon) > 1 else 78, ink, bold=True)
    _centred(draw, (x0 + HAND_CARD / 2, y0 + 156), power_name, 36, ink, bold=True)
    for size in (21, 20, 19, 18, 17, 16):
        lines = _wrap(text, size, HAND_CARD - 28)
        if len(lines) * (size + 5) <= HAND_CARD - 188:
            break
    for k, line in enumerate(lines):
        _centred(draw, (x0 + HAND_CARD / 2, y0 + 194 + (size + 5) * (k + 0.5)), line, size, ink)
    for quarter in (-1, 1) if power == "switch" else (0,):
        direction = rotate("N", quarter)
        dx, dy = STEP[direction]
        mx, my = x0 + HAND_CARD / 2 + dx * HAND_CARD / 2, y0 + HAND_CARD / 2 + dy * HAND_CARD / 2
        shape = [(-12, -26), (0, -26), (13, 0), (0, 26), (-12, 26)]
        points = [(mx + a * dx - b * dy, my + a * dy + b * dx) for a, b in shape]
        draw.polygon(points, fill=INK, outline=PAPER, width=2)
    return image


def _wrap(text: str, size: int, width: float) -> list[str]:
    """Split `text` into lines at most `width` pixels wide at `size`, breaking at spaces."""
    measure = font(size).getlength
    lines: list[str] = []
    for word in text.split():
        if lines and measure(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
