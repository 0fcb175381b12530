"""Place the fish board: hex geometry, image size, the ink boxes of a tile's numbers and the last move's arrow path."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from render.common import font

HEX_W = 92  # flat distance across a pointy-top hex
HEX_R = HEX_W / math.sqrt(3)  # centre to corner
ROW_H = HEX_R * 1.5
MARGIN = 24
HEADER_H = 64
SEAT_ROW_H = 46
WATER = (33, 86, 140)
WATER_LINE = (58, 116, 173)
ICE = {1: (226, 238, 247), 2: (176, 212, 236), 3: (124, 180, 222)}
HIGHLIGHT = (255, 255, 255)
MARK = (255, 208, 0)  # the ring round the tile just reached or placed on: reads on water and on every ice
SHAPES = ("circle", "square", "triangle", "diamond")
PENGUIN_R = int(HEX_R * 0.5)
PENGUIN_DY = 6  # penguins and fish counts sit a little below the centre, under the tile's label
LABEL_DY = -HEX_R * 0.58
LABEL_SIZE, FISH_SIZE, BADGE_SIZE = 18, 34, 17
BADGE_DX = HEX_R * 0.66
ARROW_HALF, HEAD_HALF, HEAD_LEN, CLEAR = 2.5, 6.5, 15, 1.5
"""Half widths of the last-move arrow's shaft and head, the head's length, and the gap kept from any number."""
HEADER_SIZE, NAME_SIZE = 28, 22


def centre(row: int, x: int) -> tuple[float, float]:
    """Return the pixel centre of the hex at board row `row`, doubled column `x`."""
    return MARGIN + HEX_W / 2 + x * HEX_W / 2, HEADER_H + MARGIN + HEX_R + row * ROW_H


def corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Return the six corners of a pointy-top hex."""
    return [
        (cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30))) for i in range(6)
    ]


def board_size(view: dict[str, Any]) -> tuple[int, int]:
    """Return the image size for a board."""
    max_x = max(t["x"] for t in view["tiles"])
    max_row = max(t["row"] for t in view["tiles"])
    width = int(2 * MARGIN + HEX_W / 2 * (max_x + 2))
    height = int(HEADER_H + 2 * MARGIN + 2 * HEX_R + max_row * ROW_H + SEAT_ROW_H * len(view["seats"]) + 8)
    return width, height


Box = tuple[float, float, float, float]


def label_box(label: str) -> Box:
    """Return the ink box of a tile's label, relative to the tile's centre."""
    x0, y0, x1, y1 = font(LABEL_SIZE, bold=True).getbbox(label, anchor="mm")
    return x0, y0 + LABEL_DY, x1, y1 + LABEL_DY


def fish_box(fish: int) -> Box:
    """Return the ink box of the big fish count on a free tile, relative to the tile's centre."""
    x0, y0, x1, y1 = font(FISH_SIZE, bold=True).getbbox(str(fish), anchor="mm")
    return x0, y0 + PENGUIN_DY, x1, y1 + PENGUIN_DY


def badge_box(fish: int) -> Box:
    """Return the ink box of the small fish count beside a penguin, relative to the tile's centre."""
    x0, y0, x1, y1 = font(BADGE_SIZE, bold=True).getbbox(str(fish), anchor="mm")
    return x0 + BADGE_DX, y0 + PENGUIN_DY, x1 + BADGE_DX, y1 + PENGUIN_DY


PENGUIN_REACH = PENGUIN_R + 3
"""Radius of a penguin marker with its outline, round (0, PENGUIN_DY) from the tile's centre."""


def project(box: Box, n: tuple[float, float]) -> tuple[float, float]:
    """Return the span of a box along the unit vector n."""
    values = [n[0] * x + n[1] * y for x in (box[0], box[2]) for y in (box[1], box[3])]
    return min(values), max(values)


@cache
def arrow_offset(ux: float, uy: float) -> float:
    """Return how far beside the line of centres a move arrow in direction (ux, uy) runs, clear of every number.

    Tiles the arrow crosses show a label and a fish count; the lines of tiles beside it may also hold
    penguins. The offset is the middle of the free band nearest the line of centres that is wide enough.
    """
    n = (-uy, ux)
    on_path = [project(box, n) for box in (label_box("B8"), *(fish_box(f) for f in (1, 2, 3)))]
    marker = n[1] * PENGUIN_DY
    beside = [*on_path, (marker - PENGUIN_REACH, marker + PENGUIN_REACH), project(badge_box(3), n)]
    blocked = []
    for k in range(-2, 3):
        shift = k * ROW_H  # neighbouring lines of centres are one row height apart in every direction
        blocked += [(lo + shift, hi + shift) for lo, hi in (on_path if k == 0 else beside)]
    blocked.sort()
    need = HEAD_HALF + CLEAR
    best: float | None = None
    reach = blocked[0][1]
    for lo, hi in blocked[1:]:
        if lo - reach >= 2 * need:
            middle = (lo + reach) / 2
            if best is None or abs(middle) < abs(best):
                best = middle
        reach = max(reach, hi)
    if best is None:
        raise RuntimeError("no room beside the tiles for a move arrow")
    return best


def arrow(view: dict[str, Any]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Return where the last move's arrow starts and where its head ends, or None when the last action was no move."""
    last = view.get("last") or {}
    tiles = {t["label"]: t for t in view["tiles"]}
    if last.get("from") not in tiles or last.get("to") not in tiles:
        return None
    a, b = tiles[last["from"]], tiles[last["to"]]
    (ax, ay), (bx, by) = centre(a["row"], a["x"]), centre(b["row"], b["x"])
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    d = arrow_offset(round(ux, 6), round(uy, 6))
    nx, ny = -uy, ux
    # Stop the head short of the penguin that arrived (its marker and its fish count) where they reach its band.
    h = HEAD_HALF + CLEAR
    r = PENGUIN_REACH
    back = 0.0
    for box in ((-r, PENGUIN_DY - r, r, PENGUIN_DY + r), badge_box(b["fish"])):
        lo, hi = project(box, (nx, ny))
        if lo - h < d < hi + h:
            back = max(back, h - project(box, (ux, uy))[0])
    start = (ax + nx * d, ay + ny * d)
    end = (bx + nx * d - ux * back, by + ny * d - uy * back)
    return start, end
