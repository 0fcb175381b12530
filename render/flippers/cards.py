"""Draw Flippers cards and cells in full colour: Explorers, Food, Block markers, open and Leader cells, hand cards."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.flippers.cards import MINUS_POINTS, PLUS_POINTS
from engine.flippers.table import DIRECTIONS, STEP, rotate
from render.common import INK, PAPER, draw_text, fit_text, font, seat_colour, text_length, text_on, wrap_text

# The table: one cell per card; a card fills the cell less a gap, where the arrow tips sit.
CELL = 84
INSET = 5
CARD = CELL - 2 * INSET
TEXT = 27
"""The smallest text drawn on the table: 8 px or more on a phone 400 px wide while the picture is up to 1,350 px
wide (about 14 columns of cards and a ring of open cells)."""
LABEL = TEXT  # cell labels and team letters
NUMBER = TEXT  # the points beside a Food arrow
TAB_HALF = 13
TAB_SHIFT = 19  # a Food arrow's tab sits this far to its right of the edge's middle, its points beside it
# An Explorer's arrow: half its base and how far it reaches into the card, a quarter of the card's side.
ARROW_HALF, ARROW_DEPTH = round(CARD * 0.25), round(CARD * 0.25)
MARKER_R = 22
EDGE = 44
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
ICON_AXIS = {"bump": "E", "switch": "N", "replace": "N", "turn": "N"}
"""Icons that show a direction, and the facing they are drawn for: on the table they turn with the card."""
# Where each arrow's tab (and a Food arrow's points) sits: the corner region it turns toward.
CORNER_OF = {"N": "NE", "E": "SE", "S": "SW", "W": "NW"}
Box = tuple[int, int, int, int]


def _centred(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Any, bold: bool = False
) -> None:
    """Draw game text (never a player's name, but in any language) centred on `xy`."""
    draw_text(draw, xy, text, size, fill, bold=bold, anchor="mm")


def _fit(text: str, size: int, width: float, bold: bool = True, floor: int = 9) -> int:
    """Return the largest font size from `floor` up to `size` at which `text` (which may hold names) fits `width`."""
    while size > floor and text_length(text, size, bold) > width:
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
    """Draw the round badge of a card already activated this turn: a check mark drawn as lines, not as text."""
    if state == "done":
        x1, y1 = box[2] - 2, box[3] - 2
        draw.ellipse((x1 - 24, y1 - 24, x1, y1), fill=INK, outline=PAPER, width=2)
        draw.line([(x1 - 18, y1 - 12), (x1 - 13, y1 - 6), (x1 - 5, y1 - 18)], fill=PAPER, width=4)


def _arrow(draw: ImageDraw.ImageDraw, box: Box, direction: str, fill: Any) -> None:
    """Draw a large arrowhead in the middle of the card edge facing `direction`, its tip at the cell's edge."""
    x0, y0, x1, y1 = box
    dx, dy = STEP[direction]
    mx, my = (x0 + x1) / 2 + dx * (x1 - x0) / 2, (y0 + y1) / 2 + dy * (y1 - y0) / 2
    shape = [(-ARROW_DEPTH, -ARROW_HALF), (INSET - 2, 0), (-ARROW_DEPTH, ARROW_HALF)]  # tips of facing cards never meet
    points = [(mx + a * dx - b * dy, my + a * dy + b * dx) for a, b in shape]
    draw.polygon(points, fill=fill, outline=PAPER, width=2)


def _icon(image: Image.Image, power: str, facing: str, centre: tuple[float, float], ink: Any) -> None:
    """Draw a power's icon, turned with the card when the icon shows a direction (Bump, Switch, Replace, Turn)."""
    icon = ICONS[power]
    size = 34 if len(icon) > 1 else 40
    side = 56
    sprite = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text((side / 2, side / 2), icon, font=font(size, True), fill=ink, anchor="mm")
    if power in ICON_AXIS:
        quarters = (DIRECTIONS.index(facing) - DIRECTIONS.index(ICON_AXIS[power])) % 4
        sprite = sprite.rotate(-90 * quarters)
    image.paste(sprite, (round(centre[0] - side / 2), round(centre[1] - side / 2)), sprite)


def _draw_explorer(
    team: int, letter: str, power: str, power_name: str, facing: str, face: str, state: str
) -> Image.Image:
    """Draw an Explorer card's cell ("due": still to activate, "done": activated this turn).

    Its arrow points at the cell it aims at (two for Switch); the power's name is in the menus and alt text, the
    icon says it on the card. A face-down card is dark and striped, with its letter and a faint arrow.
    """
    image, draw, box = _tile(state)
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    colour = seat_colour(team)
    if face == "down":
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline=colour, width=5)
        for k in range(-CARD, CARD, 12):
            draw.line([(x0 + 6 + k, y1 - 6), (x0 + 6 + k + CARD, y1 - 6 - CARD)], fill=(84, 92, 108), width=4)
        draw.rounded_rectangle(box, radius=8, outline=colour, width=5)
        _centred(draw, (cx, cy), letter, 34, colour, bold=True)
        _arrow(draw, box, facing, TAB_DOWN)
        _badge(draw, box, state)
        return image
    ink = text_on(colour)
    draw.rounded_rectangle(box, radius=8, fill=colour, outline=INK, width=2)
    corner = {"N": (x0 + 15, y1 - 16), "E": (x0 + 15, y0 + 16), "S": (x0 + 15, y0 + 16), "W": (x1 - 15, y0 + 16)}
    _centred(draw, corner[facing], letter, LABEL, ink, bold=True)
    _icon(image, power, facing, (cx, cy), ink)
    for quarter in (-1, 1) if power == "switch" else (0,):
        _arrow(draw, box, rotate(facing, quarter), INK)
    _badge(draw, box, state)
    return image


def _free_corners(arrows: tuple[tuple[str, int], ...]) -> list[str]:
    """Return the corners of a Food card that hold no arrow's points, in the order they are used."""
    used = {CORNER_OF[direction] for direction, _ in arrows}
    return [corner for corner in ("NW", "SE", "SW", "NE") if corner not in used]


def _corner(corner: str, inset: float) -> tuple[float, float]:
    """Return a point `inset` pixels in from both edges of a card's corner, in cell coordinates."""
    near, far = INSET + inset, CELL - INSET - inset
    return (far if "E" in corner else near), (far if "S" in corner else near)


def _draw_food(
    name: str, face: str, arrows: tuple[tuple[str, int], ...], marked: bool = False, name_size: int = 0
) -> Image.Image:
    """Draw a Food card's cell: its side large in the middle, each arrow's tab with the points beside it.

    With a `name_size` the side letter moves up the middle column and the name (shortened to fit) runs across
    the middle, clear of the points; without one (a wide table, whose close-up names its Food) only the side shows.
    """
    image, draw, box = _tile()
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    draw.rounded_rectangle(box, radius=8, fill=FOOD_BG, outline=FOOD_INK, width=3)
    for direction, points in arrows:
        dx, dy = STEP[direction]
        sx, sy = STEP[rotate(direction)]
        _tab(draw, box, direction, FOOD_INK)
        reach = CARD / 2 - 13
        spot = (cx + dx * reach + sx * TAB_SHIFT, cy + dy * reach + sy * TAB_SHIFT)
        _centred(draw, spot, str(points), NUMBER, INK, bold=True)
    del marked  # the marker sits in a free corner, clear of the side letter
    if name_size:
        _centred(draw, (cx, 22), face, 22, FOOD_INK, bold=True)
        _centred(draw, (cx, 44), fit_text(name, name_size, CARD - 10, True), name_size, INK, bold=True)
    else:
        _centred(draw, (cx, cy), face, 30, FOOD_INK, bold=True)
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
    _centred(draw, (c, c + 0.5), letter, max(LABEL, round(radius * 1.2)), text_on(colour), bold=True)
    return image


def _draw_empty(text: str, colour: tuple[int, int, int] | None, low: bool = False) -> Image.Image:
    """Draw an open cell (its label in a faint frame), or a Leader cell framed in the placing seat's colour.

    `low` puts the label near the bottom, leaving the top for a Block marker waiting on the cell.
    """
    image = Image.new("RGB", (CELL, CELL), PAPER)
    draw = ImageDraw.Draw(image)
    box = (INSET, INSET, CELL - INSET, CELL - INSET)
    y = CELL - INSET - 16 if low else CELL / 2
    if colour is None:
        draw.rounded_rectangle(box, radius=8, outline=OPEN, width=2)
        _centred(draw, (CELL / 2, y), text, _fit(text, LABEL, CARD - 6, False), FAINT)
    else:
        tint = tuple(round(p + (c - p) * 0.3) for c, p in zip(colour, PAPER, strict=True))
        draw.rounded_rectangle(box, radius=8, fill=tint, outline=colour, width=4)
        _centred(draw, (CELL / 2, y), text, _fit(text, LABEL, CARD - 8), INK, bold=True)
    return image


HAND_CARD, HAND_PAD, HAND_TOP = 300, 24, 74


@lru_cache(maxsize=256)
def _hand_card(team: int, letter: str, power: str, power_name: str, text: str) -> Image.Image:
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
    icon = ICONS[power]
    _centred(draw, (x0 + HAND_CARD / 2, y0 + 86), icon, 60 if len(icon) > 1 else 78, ink, bold=True)
    _centred(draw, (x0 + HAND_CARD / 2, y0 + 156), power_name, _fit(power_name, 36, HAND_CARD - 28), ink, bold=True)
    for size in (21, 20, 19, 18, 17, 16, 15, 14):
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
    """Split `text` into lines at most `width` pixels wide at `size`: at spaces, or between characters (Japanese)."""
    return wrap_text(text, size, width, max_lines=len(text))
