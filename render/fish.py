"""Draw the Hey, That's My Fish! board: hex tiles, fish, penguins, scores and the last move."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, PAPER, SEAT_COLOUR_NAMES, encode_png, font, seat_colour, seat_letter, text_on

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
SHAPES = ("circle", "square", "triangle", "diamond")


def _centre(row: int, x: int) -> tuple[float, float]:
    """Return the pixel centre of the hex at board row `row`, doubled column `x`."""
    return MARGIN + HEX_W / 2 + x * HEX_W / 2, HEADER_H + MARGIN + HEX_R + row * ROW_H


def _corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Return the six corners of a pointy-top hex."""
    return [
        (cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30))) for i in range(6)
    ]


def _size(view: dict[str, Any]) -> tuple[int, int]:
    """Return the image size for a board."""
    max_x = max(t["x"] for t in view["tiles"])
    max_row = max(t["row"] for t in view["tiles"])
    width = int(2 * MARGIN + HEX_W / 2 * (max_x + 2))
    height = int(HEADER_H + 2 * MARGIN + 2 * HEX_R + max_row * ROW_H + SEAT_ROW_H * ((len(view["seats"]) + 1) // 2) + 8)
    return width, height


@cache
def _water(width: int, height: int, cells: tuple[tuple[int, int], ...]) -> Image.Image:
    """Draw the static layer: sea, the outline of every board space and the header band."""
    image = Image.new("RGB", (width, height), WATER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, HEADER_H), fill=PAPER)
    for row, x in cells:
        draw.polygon(_corners(*_centre(row, x), HEX_R - 1), outline=WATER_LINE)
    return image


def shape(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill: tuple[int, int, int]) -> None:
    """Draw a seat marker shape centred on (cx, cy) with a dark outline."""
    box = (cx - r, cy - r, cx + r, cy + r)
    if kind == "circle":
        draw.ellipse(box, fill=fill, outline=INK, width=3)
    elif kind == "square":
        inset = r * 0.12
        draw.rectangle(
            (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill=fill, outline=INK, width=3
        )
    elif kind == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill, outline=INK, width=3)
    else:
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=INK, width=3)


def _penguin(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    """Draw one penguin: the seat's colour, shape and letter."""
    colour = seat_colour(seat)
    shape(draw, SHAPES[seat % len(SHAPES)], cx, cy, r, colour)
    dy = r * 0.15 if SHAPES[seat % len(SHAPES)] == "triangle" else 0
    draw.text((cx, cy + dy), seat_letter(seat), font=font(int(r * 1.1), bold=True), fill=text_on(colour), anchor="mm")


def render_board(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the public view of a fish game as PNG bytes."""
    width, height = _size(view)
    cells = tuple((t["row"], t["x"]) for t in view["tiles"])
    image = _water(width, height, cells).copy()
    draw = ImageDraw.Draw(image)
    tiles = {t["label"]: t for t in view["tiles"]}
    penguins = {p["tile"]: p["seat"] for p in view["penguins"]}
    last = view.get("last") or {}

    label_font, fish_font = font(15, bold=True), font(34, bold=True)
    for tile in view["tiles"]:
        cx, cy = _centre(tile["row"], tile["x"])
        if tile["fish"]:
            draw.polygon(_corners(cx, cy, HEX_R - 2), fill=ICE[tile["fish"]], outline=INK, width=2)
        if tile["label"] in penguins:
            _penguin(draw, penguins[tile["label"]], cx, cy + 6, HEX_R * 0.5)
        elif tile["fish"]:
            draw.text((cx, cy + 6), str(tile["fish"]), font=fish_font, fill=INK, anchor="mm")
        label_colour = INK if tile["fish"] else (170, 200, 230)
        draw.text((cx, cy - HEX_R * 0.58), tile["label"], font=label_font, fill=label_colour, anchor="mm")

    if last.get("from") in tiles and last.get("to") in tiles:
        a, b = tiles[last["from"]], tiles[last["to"]]
        (ax, ay), (bx, by) = _centre(a["row"], a["x"]), _centre(b["row"], b["x"])
        draw.line((ax, ay, bx, by), fill=HIGHLIGHT, width=5)
        draw.polygon(_corners(ax, ay, HEX_R - 6), outline=HIGHLIGHT, width=4)
        draw.polygon(_corners(bx, by, HEX_R - 3), outline=HIGHLIGHT, width=5)
    elif last.get("to") in tiles:
        b = tiles[last["to"]]
        draw.polygon(_corners(*_centre(b["row"], b["x"]), HEX_R - 3), outline=HIGHLIGHT, width=5)

    _header(draw, view, names, width)
    _scores(draw, view, names, width, height)
    return encode_png(image)


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], width: int) -> None:
    """Write the title line: phase and whose turn, or the winners."""
    if view["phase"] == "over":
        winners = " & ".join(names[s] for s in view["winners"]) or "nobody"
        line = f"Game over · winner: {winners}"
    else:
        seat = view["to_act"][0]
        verb = "places a penguin" if view["phase"] == "placement" else "to move"
        line = f"{names[seat]} ({seat_letter(seat)}) {verb}"
        _penguin(draw, seat, width - MARGIN - 22, HEADER_H / 2, 20)
    draw.text((MARGIN, HEADER_H / 2), _fit(line, 34), font=font(28, bold=True), fill=INK, anchor="lm")


def _scores(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], width: int, height: int) -> None:
    """Write one box per seat: marker, name, fish and tiles."""
    seats = view["seats"]
    rows = (len(seats) + 1) // 2
    top = height - rows * SEAT_ROW_H - 8
    col_w = (width - 2 * MARGIN) / 2
    draw.rectangle((0, top - 8, width, height), fill=PAPER)
    for seat, info in enumerate(seats):
        x = MARGIN + (seat % 2) * col_w
        y = top + (seat // 2) * SEAT_ROW_H + SEAT_ROW_H / 2
        _penguin(draw, seat, x + 16, y, 16)
        status = ""
        if info["resigned"]:
            status = " resigned"
        elif info.get("out"):
            status = " out"
        elif info["to_place"]:
            status = f" {info['to_place']} to place"
        text = f"{_fit(names[seat], 12)}  {info['fish']} fish · {info['tiles']} tiles{status}"
        draw.text((x + 40, y), text, font=font(21, bold=seat in view["winners"]), fill=INK, anchor="lm")


def _fit(text: str, limit: int) -> str:
    """Shorten text to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def alt_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the board for screen readers: whose turn, penguins, scores and rich tiles."""
    parts = []
    if view["phase"] == "over":
        parts.append("Final board. Winner: " + " and ".join(names[s] for s in view["winners"]) + ".")
    else:
        seat = view["to_act"][0]
        parts.append(f"{names[seat]} to {'place a penguin' if view['phase'] == 'placement' else 'move'}.")
    last = view.get("last") or {}
    if last.get("from"):
        parts.append(f"Last move {last['from']} to {last['to']}.")
    for seat, info in enumerate(view["seats"]):
        where = ", ".join(p["tile"] for p in view["penguins"] if p["seat"] == seat) or "none"
        parts.append(
            f"{names[seat]} ({SEAT_COLOUR_NAMES[seat]} {seat_letter(seat)}): {info['fish']} fish, "
            f"{info['tiles']} tiles, penguins on {where}."
        )
    rich = [t["label"] for t in view["tiles"] if t["fish"] == 3]
    parts.append(f"{sum(1 for t in view['tiles'] if t['fish'])} tiles left; 3-fish tiles: {', '.join(rich) or 'none'}.")
    return " ".join(parts)[:1000]
