"""Draw the Hey, That's My Fish! board: hex tiles, fish, penguins, scores and the last move."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    PAPER,
    SEAT_COLOUR_NAMES,
    encode_png,
    font,
    palette_of,
    seat_colour,
    seat_letter,
    text_on,
)

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
    height = int(HEADER_H + 2 * MARGIN + 2 * HEX_R + max_row * ROW_H + SEAT_ROW_H * len(view["seats"]) + 8)
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


@cache
def _tile_sprite(label: str, fish: int) -> Image.Image:
    """Draw one hex tile (ice with its fish count, or the label alone on water) on a transparent square."""
    size = int(2 * HEX_R) + 2
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    cx = cy = size / 2
    if fish:
        draw.polygon(_corners(cx, cy, HEX_R - 2), fill=ICE[fish], outline=INK, width=2)
    label_colour = INK if fish else (170, 200, 230)
    draw.text((cx, cy - HEX_R * 0.58), label, font=font(18, bold=True), fill=label_colour, anchor="mm")
    return sprite


@cache
def _fish_badge(fish: int) -> Image.Image:
    """Draw the big fish count shown on a free tile."""
    sprite = Image.new("RGBA", (44, 44), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text((22, 22), str(fish), font=font(34, bold=True), fill=INK, anchor="mm")
    return sprite


@cache
def _small_badge(fish: int) -> Image.Image:
    """Draw the small fish count shown beside a penguin."""
    sprite = Image.new("RGBA", (20, 22), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text((10, 11), str(fish), font=font(17, bold=True), fill=INK, anchor="mm")
    return sprite


@cache
def _penguin_sprite(seat: int, radius: int) -> Image.Image:
    """Draw a seat's penguin marker on a transparent square."""
    size = 2 * radius + 8
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    _penguin(ImageDraw.Draw(sprite), seat, size / 2, size / 2, radius)
    return sprite


def _paste(image: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste a sprite centred on (cx, cy)."""
    image.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)


def render_board(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the public view of a fish game as PNG bytes."""
    return encode_png(draw_board(view, names), _palette())


@cache
def _palette() -> Image.Image:
    """Build the fixed palette from a reference board that uses every colour a board can show."""
    tiles = [{"label": f"R{i}", "row": i // 8, "x": 2 * (i % 8) + (i // 8) % 2, "fish": i % 4} for i in range(32)]
    seats = [{"fish": 9, "tiles": 3, "penguins": 1, "to_place": 0, "resigned": False, "out": False}] * 4
    view = {
        "phase": "play",
        "turn": 1,
        "to_act": [0],
        "tiles": tiles,
        "penguins": [{"seat": s, "tile": tiles[4 * s + 1]["label"]} for s in range(4)],
        "seats": seats,
        "last": {"seat": 0, "from": "R0", "to": "R1"},
        "winners": [1],
    }
    return palette_of(draw_board(view, ["Ana", "Bo", "Cy", "Di"]))


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the public view of a fish game."""
    width, height = _size(view)
    cells = tuple((t["row"], t["x"]) for t in view["tiles"])
    image = _water(width, height, cells).copy()
    draw = ImageDraw.Draw(image)
    tiles = {t["label"]: t for t in view["tiles"]}
    penguins = {p["tile"]: p["seat"] for p in view["penguins"]}
    last = view.get("last") or {}

    penguin_r = int(HEX_R * 0.5)
    for tile in view["tiles"]:
        cx, cy = _centre(tile["row"], tile["x"])
        _paste(image, _tile_sprite(tile["label"], tile["fish"]), cx, cy)
        if tile["label"] in penguins:
            _paste(image, _penguin_sprite(penguins[tile["label"]], penguin_r), cx, cy + 6)
            _paste(image, _small_badge(tile["fish"]), cx + HEX_R * 0.66, cy + 6)
        elif tile["fish"]:
            _paste(image, _fish_badge(tile["fish"]), cx, cy + 6)

    if last.get("from") in tiles and last.get("to") in tiles:
        a, b = tiles[last["from"]], tiles[last["to"]]
        (ax, ay), (bx, by) = _centre(a["row"], a["x"]), _centre(b["row"], b["x"])
        draw.line((ax, ay, bx, by), fill=HIGHLIGHT, width=5)
        draw.polygon(_corners(ax, ay, HEX_R - 6), outline=HIGHLIGHT, width=4)
        draw.polygon(_corners(bx, by, HEX_R - 3), outline=HIGHLIGHT, width=5)
        if last["to"] in penguins:
            _paste(image, _penguin_sprite(penguins[last["to"]], penguin_r), bx, by + 6)
    elif last.get("to") in tiles:
        b = tiles[last["to"]]
        draw.polygon(_corners(*_centre(b["row"], b["x"]), HEX_R - 3), outline=HIGHLIGHT, width=5)

    _header(draw, view, names, width)
    _scores(draw, view, names, width, height)
    return image


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
    """Write one line per seat: marker, name, fish, tiles and whether it still plays."""
    seats = view["seats"]
    top = height - len(seats) * SEAT_ROW_H - 8
    draw.rectangle((0, top - 8, width, height), fill=PAPER)
    for seat, info in enumerate(seats):
        y = top + seat * SEAT_ROW_H + SEAT_ROW_H / 2
        _penguin(draw, seat, MARGIN + 16, y, 16)
        winner = seat in view["winners"]
        draw.text((MARGIN + 42, y), _fit(names[seat], 18), font=font(22, bold=True), fill=INK, anchor="lm")
        status = "resigned" if info["resigned"] else "out" if info.get("out") else ""
        if info["to_place"]:
            status = f"{info['to_place']} to place"
        if winner:
            status = "winner"
        score = f"{info['fish']} fish · {info['tiles']} tiles" + (f" · {status}" if status else "")
        draw.text((width - MARGIN, y), score, font=font(22, bold=winner), fill=INK, anchor="rm")


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
