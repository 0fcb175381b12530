"""Draw the Hey, That's My Fish! board: hex tiles, fish, penguins, scores and the last move."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from engine.words import plural, sentence
from render.common import (
    INK,
    PAPER,
    SEAT_COLOUR_NAMES,
    draw_text,
    encode_png,
    fit_alt,
    fit_lines,
    fit_text,
    font,
    palette_of,
    seat_colour,
    seat_letter,
    text_length,
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


def _project(box: Box, n: tuple[float, float]) -> tuple[float, float]:
    """Return the span of a box along the unit vector n."""
    values = [n[0] * x + n[1] * y for x in (box[0], box[2]) for y in (box[1], box[3])]
    return min(values), max(values)


@cache
def _arrow_offset(ux: float, uy: float) -> float:
    """Return how far beside the line of centres a move arrow in direction (ux, uy) runs, clear of every number.

    Tiles the arrow crosses show a label and a fish count; the lines of tiles beside it may also hold
    penguins. The offset is the middle of the free band nearest the line of centres that is wide enough.
    """
    n = (-uy, ux)
    on_path = [_project(box, n) for box in (label_box("B8"), *(fish_box(f) for f in (1, 2, 3)))]
    marker = n[1] * PENGUIN_DY
    beside = [*on_path, (marker - PENGUIN_REACH, marker + PENGUIN_REACH), _project(badge_box(3), n)]
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
    (ax, ay), (bx, by) = _centre(a["row"], a["x"]), _centre(b["row"], b["x"])
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    d = _arrow_offset(round(ux, 6), round(uy, 6))
    nx, ny = -uy, ux
    # Stop the head short of the penguin that arrived (its marker and its fish count) where they reach its band.
    h = HEAD_HALF + CLEAR
    r = PENGUIN_REACH
    back = 0.0
    for box in ((-r, PENGUIN_DY - r, r, PENGUIN_DY + r), badge_box(b["fish"])):
        lo, hi = _project(box, (nx, ny))
        if lo - h < d < hi + h:
            back = max(back, h - _project(box, (ux, uy))[0])
    start = (ax + nx * d, ay + ny * d)
    end = (bx + nx * d - ux * back, by + ny * d - uy * back)
    return start, end


Sprite = tuple[Image.Image, Image.Image]
"""A picture drawn over water, and the mask of the pixels it covers."""


def _hex_mask(size: int) -> Image.Image:
    """Return the mask of a tile's hexagon on a square sprite."""
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).polygon(_corners(size / 2, size / 2, HEX_R - 2), fill=255)
    return mask


@cache
def _tile_sprite(label: str, fish: int, seat: int | None) -> Sprite:
    """Draw one hex tile: ice with its label and fish count or penguin, or the label alone on water."""
    size = int(2 * HEX_R) + 2
    sprite = Image.new("RGB", (size, size), WATER)
    draw = ImageDraw.Draw(sprite)
    cx = cy = size / 2
    if fish:
        draw.polygon(_corners(cx, cy, HEX_R - 2), fill=ICE[fish], outline=INK, width=2)
    label_colour = INK if fish else (170, 200, 230)
    draw.text((cx, cy + LABEL_DY), label, font=font(LABEL_SIZE, bold=True), fill=label_colour, anchor="mm")
    if seat is not None:
        _penguin(draw, seat, cx, cy + PENGUIN_DY, PENGUIN_R)
        draw.text((cx + BADGE_DX, cy + PENGUIN_DY), str(fish), font=font(BADGE_SIZE, bold=True), fill=INK, anchor="mm")
    elif fish:
        draw.text((cx, cy + PENGUIN_DY), str(fish), font=font(FISH_SIZE, bold=True), fill=INK, anchor="mm")
    return sprite, _hex_mask(size)


@cache
def _ghost_sprite(seat: int) -> Sprite:
    """Draw a penguin just stranded and lifted off: its marker faded into the water, with a cross badge."""
    r = int(PENGUIN_R * 0.8)
    size = 2 * PENGUIN_R + 16
    marker = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    c = size / 2
    _penguin(ImageDraw.Draw(marker), seat, c - 5, c, r)
    mask = marker.getchannel("A").point(lambda a: 255 if a else 0)
    sprite = Image.new("RGB", (size, size), WATER)
    sprite.paste(marker, (0, 0), marker.getchannel("A").point(lambda a: a * 60 // 100))  # faded: it left the board
    draw, mask_draw = ImageDraw.Draw(sprite), ImageDraw.Draw(mask)
    x, y, arm = c + r - 1, c + r - 6, 7
    badge = (x - arm - 4, y - arm - 4, x + arm + 4, y + arm + 4)
    draw.ellipse(badge, fill=INK, outline=HIGHLIGHT, width=2)
    mask_draw.ellipse(badge, fill=255)
    for a, b in (
        ((x - arm / 2, y - arm / 2), (x + arm / 2, y + arm / 2)),
        ((x + arm / 2, y - arm / 2), (x - arm / 2, y + arm / 2)),
    ):
        draw.line((*a, *b), fill=HIGHLIGHT, width=3)
    return sprite, mask


@cache
def _tile(label: str, fish: int, seat: int | None, indexed: bool) -> Sprite:
    """Return a tile sprite, mapped onto the fixed palette when the board is indexed."""
    picture, mask = _tile_sprite(label, fish, seat)
    return (_quantize(picture), mask) if indexed else (picture, mask)


@cache
def _ghost(seat: int, indexed: bool) -> Sprite:
    """Return a stranded-penguin sprite, mapped onto the fixed palette when the board is indexed."""
    picture, mask = _ghost_sprite(seat)
    return (_quantize(picture), mask) if indexed else (picture, mask)


def _quantize(picture: Image.Image) -> Image.Image:
    """Map an RGB picture onto the fixed palette."""
    return picture.quantize(palette=_palette(), dither=Image.Dither.NONE)


def render_board(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the public view of a fish game as PNG bytes (indexed colour: drawn straight onto the fixed palette)."""
    return encode_png(draw_board(view, names))


KEY_COLOURS = (
    WATER,
    WATER_LINE,
    PAPER,
    INK,
    HIGHLIGHT,
    MARK,
    (170, 200, 230),
    *ICE.values(),
    *(seat_colour(s) for s in range(len(SHAPES))),
)
"""Colours kept exactly in the palette; the rest of it holds the shades of anti-aliased text."""


@cache
def _palette() -> Image.Image:
    """Build the fixed palette: the key colours, then the shades a reference board drawn in full colour uses."""
    tiles = [{"label": f"R{i}", "row": i // 8, "x": 2 * (i % 8) + (i // 8) % 2, "fish": i % 4} for i in range(32)]
    seats = [{"fish": 9, "tiles": 3, "penguins": 1, "to_place": 0, "resigned": False, "out": False}] * 4
    view = {
        "phase": "play",
        "turn": 1,
        "to_act": [0],
        "tiles": tiles,
        "penguins": [{"seat": s, "tile": tiles[4 * s + 1]["label"]} for s in range(4)],
        "seats": seats,
        "last": {
            "seat": 0,
            "from": "R0",
            "to": "R2",
            "stranded": [{"seat": s, "tile": tiles[4 * s + 16]["label"]} for s in range(4)],
        },
        "winners": [1],
    }
    reference = palette_of(_draw(view, ["Ana", "Bo", "Cy", "Di"], indexed=False), colours=256 - len(KEY_COLOURS))
    shades = reference.getpalette() or []
    # A shade too close to a key colour could win its slot in Pillow's colour lookup: keep those out.
    near = [c for c in zip(shades[0::3], shades[1::3], shades[2::3], strict=True) if not _close_to_key(c)]
    colours = list(dict.fromkeys([*KEY_COLOURS, *near]))[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in colours for v in colour] + [0] * (3 * (256 - len(colours))))
    return palette


def _close_to_key(colour: tuple[int, int, int]) -> bool:
    """Tell whether a colour lies within a few levels of a key colour (without being one)."""
    return any(0 < max(abs(a - b) for a, b in zip(colour, key, strict=True)) <= 12 for key in KEY_COLOURS)


@cache
def _ink_index() -> dict[tuple[int, int, int], int]:
    """Return the palette index of every key colour."""
    flat = _palette().getpalette() or []
    at = {tuple(flat[i : i + 3]): i // 3 for i in range(len(flat) - 3, -1, -3)}
    return {colour: at[colour] for colour in KEY_COLOURS}


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the public view of a fish game as an indexed (palette) image."""
    return _draw(view, names, indexed=True)


def _draw(view: dict[str, Any], names: Sequence[str], *, indexed: bool) -> Image.Image:
    """Draw a board in full colour, or straight onto the fixed palette with pre-mapped sprites."""
    width, height = _size(view)
    cells = tuple((t["row"], t["x"]) for t in view["tiles"])
    image = (_indexed_water if indexed else _water)(width, height, cells).copy()
    draw = ImageDraw.Draw(image)
    ink = _ink_index() if indexed else {c: c for c in KEY_COLOURS}
    tiles = {t["label"]: t for t in view["tiles"]}
    penguins = {p["tile"]: p["seat"] for p in view["penguins"]}
    last = view.get("last") or {}

    for tile in view["tiles"]:
        label = tile["label"]
        picture, mask = _tile(label, tile["fish"], penguins.get(label), indexed)
        cx, cy = _centre(tile["row"], tile["x"])
        image.paste(picture, (round(cx - picture.width / 2), round(cy - picture.height / 2)), mask)

    if last.get("from") in tiles:
        a = tiles[last["from"]]
        draw.polygon(_corners(*_centre(a["row"], a["x"]), HEX_R - 6), outline=ink[HIGHLIGHT], width=3)
    if last.get("to") in tiles:
        b = tiles[last["to"]]
        bx, by = _centre(b["row"], b["x"])
        draw.polygon(_corners(bx, by, HEX_R + 3), outline=ink[INK], width=8)
        draw.polygon(_corners(bx, by, HEX_R + 1), outline=ink[MARK], width=4)
    for gone in last.get("stranded") or []:
        if gone.get("tile") in tiles:
            t = tiles[gone["tile"]]
            cx, cy = _centre(t["row"], t["x"])
            picture, mask = _ghost(gone["seat"], indexed)
            image.paste(picture, (round(cx - picture.width / 2), round(cy + PENGUIN_DY - picture.height / 2)), mask)
    line = arrow(view)
    if line is not None:
        _arrow(draw, *line, ink)

    top = height - len(view["seats"]) * SEAT_ROW_H - 16
    header, scores = Image.new("RGB", (width, HEADER_H), PAPER), Image.new("RGB", (width, height - top), PAPER)
    _header(ImageDraw.Draw(header), view, names, width)
    _scores(ImageDraw.Draw(scores), view, names, width)
    for panel, y in ((header, 0), (scores, top)):
        image.paste(_quantize(panel) if indexed else panel, (0, y))
    return image


@cache
def _indexed_water(width: int, height: int, cells: tuple[tuple[int, int], ...]) -> Image.Image:
    """Return the static layer mapped onto the fixed palette."""
    return _quantize(_water(width, height, cells))


def _arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    ink: dict[tuple[int, int, int], Any],
) -> None:
    """Draw a dark arrow with a white rim from start to the tip at end."""
    (sx, sy), (ex, ey) = start, end
    length = math.hypot(ex - sx, ey - sy)
    ux, uy = (ex - sx) / length, (ey - sy) / length
    nx, ny = -uy, ux
    base = (ex - ux * HEAD_LEN, ey - uy * HEAD_LEN)
    head = [
        end,
        (base[0] + nx * HEAD_HALF, base[1] + ny * HEAD_HALF),
        (base[0] - nx * HEAD_HALF, base[1] - ny * HEAD_HALF),
    ]
    shaft = (sx, sy, base[0] + ux * 2, base[1] + uy * 2)
    draw.line(shaft, fill=ink[HIGHLIGHT], width=round(2 * ARROW_HALF) + 2)
    draw.polygon(head, fill=ink[HIGHLIGHT])
    draw.line(shaft, fill=ink[INK], width=round(2 * ARROW_HALF) - 2)
    inset = HEAD_HALF - 2.5
    draw.polygon(
        [
            (ex - ux * 2, ey - uy * 2),
            (base[0] + ux + nx * inset, base[1] + uy + ny * inset),
            (base[0] + ux - nx * inset, base[1] + uy - ny * inset),
        ],
        fill=ink[INK],
    )


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], width: int) -> None:
    """Write the title line: whose turn and what they do (the name shortened, never the verb), or the winners."""
    room = width - 2 * MARGIN
    if view["phase"] == "over":
        lead = "Game over · winner: " if len(view["winners"]) < 2 else "Game over · winners: "
        winners = [names[s] for s in view["winners"]]
        if not winners:
            draw_text(draw, (MARGIN, HEADER_H / 2), "Game over · no winner", HEADER_SIZE, INK, bold=True, anchor="lm")
            return
        # Whole names: on a second, smaller line when they do not fit on one.
        size, lines = fit_lines(lead + " & ".join(winners), room, (HEADER_SIZE, 22), bold=True)
        for i, line in enumerate(lines):
            middle = HEADER_H / 2 + (i - (len(lines) - 1) / 2) * (size + 4)
            draw_text(draw, (MARGIN, middle), line, size, INK, bold=True, anchor="lm")
        return
    seat = view["to_act"][0]
    verb = "places a penguin" if view["phase"] == "placement" else "to move"
    tail = f" ({seat_letter(seat)}) {verb}"
    _penguin(draw, seat, width - MARGIN - 22, HEADER_H / 2, 20)
    room -= 44 + 12
    name = fit_text(names[seat], HEADER_SIZE, room - text_length(tail, HEADER_SIZE, True), bold=True)
    draw_text(draw, (MARGIN, HEADER_H / 2), name, HEADER_SIZE, INK, bold=True, anchor="lm")
    x = MARGIN + text_length(name, HEADER_SIZE, True)
    draw.text((x, HEADER_H / 2), tail, font=font(HEADER_SIZE, bold=True), fill=INK, anchor="lm")


def _scores(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], width: int) -> None:
    """Write one line per seat on the score panel: marker, name, fish, tiles and whether it still plays."""
    seats = view["seats"]
    top = 8
    for seat, info in enumerate(seats):
        y = top + seat * SEAT_ROW_H + SEAT_ROW_H / 2
        _penguin(draw, seat, MARGIN + 16, y, 16)
        winner = seat in view["winners"]
        status = "resigned" if info["resigned"] else "out" if info.get("out") else ""
        if info["to_place"]:
            status = f"{info['to_place']} to place"
        if winner:
            status = "winner"
        score = f"{plural(info['fish'], 'fish')} · {plural(info['tiles'], 'tile')}" + (f" · {status}" if status else "")
        draw.text((width - MARGIN, y), score, font=font(NAME_SIZE, bold=winner), fill=INK, anchor="rm")
        room = width - 2 * MARGIN - 42 - text_length(score, NAME_SIZE, winner) - 16
        size, lines = fit_lines(names[seat], room, (NAME_SIZE, 17), bold=True)
        for i, line in enumerate(lines):
            middle = y + (i - (len(lines) - 1) / 2) * (size + 2)
            draw_text(draw, (MARGIN + 42, middle), line, size, INK, bold=True, anchor="lm")


def alt_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the board for screen readers: whose turn, penguins, scores and rich tiles."""
    parts = []
    if view["phase"] == "over":
        parts.append(sentence("Final board. Winner: " + " and ".join(names[s] for s in view["winners"])))
    else:
        seat = view["to_act"][0]
        parts.append(f"{names[seat]} to {'place a penguin' if view['phase'] == 'placement' else 'move'}.")
    last = view.get("last") or {}
    if last.get("from"):
        parts.append(f"Last move {last['from']} to {last['to']}.")
    for gone in last.get("stranded") or []:
        parts.append(f"{names[gone['seat']]}'s penguin on {gone['tile']} was stranded and removed.")
    for seat, info in enumerate(view["seats"]):
        where = ", ".join(p["tile"] for p in view["penguins"] if p["seat"] == seat)
        penguins = f"penguins on {where}" if where else "no penguin on the board"
        parts.append(
            f"{names[seat]} ({SEAT_COLOUR_NAMES[seat]} {seat_letter(seat)}): {plural(info['fish'], 'fish')}, "
            f"{plural(info['tiles'], 'tile')}, {penguins}."
        )
    rich = [t["label"] for t in view["tiles"] if t["fish"] == 3]
    left = plural(sum(1 for t in view["tiles"] if t["fish"]), "tile")
    parts.append(f"{left} left; 3-fish tiles: {', '.join(rich) or 'none'}.")
    return fit_alt(" ".join(parts))
