"""Draw the whole fish board onto a fixed palette: tiles, last move, stranded penguins, header and scores."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from engine.words import join_last
from i18n import ENGLISH, _, ngettext, pgettext, using
from render.common import (
    INK,
    PAPER,
    draw_text,
    encode_png,
    fit_lines,
    fit_named_lines,
    palette_of,
    seat_colour,
    seat_letter,
    text_length,
)
from render.fish.layout import (
    ARROW_HALF,
    HEAD_HALF,
    HEAD_LEN,
    HEADER_H,
    HEADER_SIZE,
    HEX_R,
    HIGHLIGHT,
    ICE,
    MARGIN,
    MARK,
    NAME_SIZE,
    PENGUIN_DY,
    SEAT_ROW_H,
    SHAPES,
    WATER,
    WATER_LINE,
    arrow,
    board_size,
    centre,
    corners,
)
from render.fish.sprites import Sprite, ghost_sprite, penguin, tile_sprite, water

Tile = tuple[Image.Image, Image.Image, float, tuple[int, int]]
"""A tile sprite cropped to its hexagon, the hexagon's mask, half the square sprite's side and where the crop starts."""


@cache
def _tile(label: str, fish: int, seat: int | None, indexed: bool) -> Tile:
    """Return a tile sprite cropped to its hexagon, mapped onto the fixed palette when the board is indexed."""
    picture, mask = tile_sprite(label, fish, seat)
    box = mask.getbbox() or (0, 0, *mask.size)
    picture, half = picture.crop(box), mask.width / 2
    return _quantize(picture) if indexed else picture, mask.crop(box), half, box[:2]


@cache
def _ghost(seat: int, indexed: bool) -> Sprite:
    """Return a stranded-penguin sprite, mapped onto the fixed palette when the board is indexed."""
    picture, mask = ghost_sprite(seat)
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
    with using(ENGLISH):  # the same palette whichever language a worker draws first
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
    """Draw a board in full colour, or straight onto the fixed palette with pre-mapped sprites and text."""
    width, height = board_size(view)
    cells = tuple((t["row"], t["x"]) for t in view["tiles"])
    image = (_indexed_water if indexed else water)(width, height, cells).copy()
    draw = ImageDraw.Draw(image)
    ink = _ink_index() if indexed else {c: c for c in KEY_COLOURS}
    tiles = {t["label"]: t for t in view["tiles"]}
    penguins = {p["tile"]: p["seat"] for p in view["penguins"]}
    last = view.get("last") or {}

    for tile in view["tiles"]:
        label = tile["label"]
        picture, mask, half, (dx, dy) = _tile(label, tile["fish"], penguins.get(label), indexed)
        cx, cy = centre(tile["row"], tile["x"])
        image.paste(picture, (round(cx - half) + dx, round(cy - half) + dy), mask)

    if last.get("from") in tiles:
        a = tiles[last["from"]]
        draw.polygon(corners(*centre(a["row"], a["x"]), HEX_R - 6), outline=ink[HIGHLIGHT], width=3)
    if last.get("to") in tiles:
        b = tiles[last["to"]]
        bx, by = centre(b["row"], b["x"])
        draw.polygon(corners(bx, by, HEX_R + 3), outline=ink[INK], width=8)
        draw.polygon(corners(bx, by, HEX_R + 1), outline=ink[MARK], width=4)
    for gone in last.get("stranded") or []:
        if gone.get("tile") in tiles:
            t = tiles[gone["tile"]]
            cx, cy = centre(t["row"], t["x"])
            picture, mask = _ghost(gone["seat"], indexed)
            image.paste(picture, (round(cx - picture.width / 2), round(cy + PENGUIN_DY - picture.height / 2)), mask)
    line = arrow(view)
    if line is not None:
        _arrow(draw, *line, ink)

    top = height - len(view["seats"]) * SEAT_ROW_H - 16
    for items, box in (
        (_header(view, names, width), (0, 0, width, HEADER_H)),
        (_scores(view, names, width, top), (0, top, width, height)),
    ):
        (_stamp if indexed else _paint)(image, items, box)
    return image


@dataclass(frozen=True)
class Text:
    """A line of text on a panel, placed as `draw_text` places it."""

    xy: tuple[float, float]
    text: str
    size: int
    bold: bool
    anchor: str


@dataclass(frozen=True)
class Marker:
    """A seat's penguin marker on a panel."""

    seat: int
    xy: tuple[float, float]
    r: float


Item = Text | Marker


def _paint(image: Image.Image, items: Sequence[Item], box: tuple[int, int, int, int]) -> None:
    """Draw a panel's items in full colour on paper filling `box`."""
    panel = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), PAPER)
    draw = ImageDraw.Draw(panel)
    for item in items:
        x, y = item.xy[0] - box[0], item.xy[1] - box[1]
        if isinstance(item, Marker):
            penguin(draw, item.seat, x, y, item.r)
        else:
            draw_text(draw, (x, y), item.text, item.size, INK, bold=item.bold, anchor=item.anchor)
    image.paste(panel, box[:2])


Stamp = tuple[Image.Image, Image.Image, int, int]
"""A panel item drawn on paper, cropped to its ink and mapped onto the palette: picture, ink mask, corner offset."""


def _stamp(image: Image.Image, items: Sequence[Item], box: tuple[int, int, int, int]) -> None:
    """Paste a panel's items, drawn once on paper and kept mapped onto the palette, on paper filling `box`."""
    image.paste(_ink_index()[PAPER], box)
    for item in items:
        x, y = item.xy[0] - box[0], item.xy[1] - box[1]
        # An item drawn at x or x + 2 looks the same, not always at x + 1: emoji positions round halves to even.
        ex, ey = x % 2, y % 2
        if isinstance(item, Marker):
            stamp = _marker_stamp(item.seat, item.r, ex, ey)
        else:
            stamp = _text_stamp(item.text, item.size, item.bold, item.anchor, ex, ey)
        if stamp is None:
            continue
        picture, mask, dx, dy = stamp
        left, top = box[0] + int(x - ex) + dx, box[1] + int(y - ey) + dy
        clip = (
            max(box[0] - left, 0),
            max(box[1] - top, 0),
            min(box[2] - left, picture.width),
            min(box[3] - top, picture.height),
        )
        if clip[0] >= clip[2] or clip[1] >= clip[3]:
            continue
        if clip != (0, 0, picture.width, picture.height):
            picture, mask = picture.crop(clip), mask.crop(clip)
        image.paste(picture, (left + clip[0], top + clip[1]), mask)


@lru_cache(maxsize=2048)
def _text_stamp(text: str, size: int, bold: bool, anchor: str, ex: float, ey: float) -> Stamp | None:
    """Draw a line of text placed (ex, ey) past an even pixel, as a stamp (None when it leaves no ink)."""
    pad, length = 2 * size, 2 * math.ceil(text_length(text, size, bold) / 2)
    canvas = Image.new("RGB", (length + 2 * pad + 4, 4 * size + 2), PAPER)
    origin = pad + {"l": 0, "m": length // 2 - length // 2 % 2, "r": length}[anchor[0]], pad
    draw_text(ImageDraw.Draw(canvas), (origin[0] + ex, origin[1] + ey), text, size, INK, bold=bold, anchor=anchor)
    return _pressed(canvas, origin)


@lru_cache(maxsize=64)
def _marker_stamp(seat: int, r: float, ex: float, ey: float) -> Stamp | None:
    """Draw a seat's penguin marker of radius `r` centred (ex, ey) past an even pixel, as a stamp."""
    side = 2 * math.ceil(r) + 4
    canvas = Image.new("RGB", (2 * side, 2 * side), PAPER)
    penguin(ImageDraw.Draw(canvas), seat, side + ex, side + ey, r)
    return _pressed(canvas, (side, side))


def _pressed(canvas: Image.Image, origin: tuple[int, int]) -> Stamp | None:
    """Crop a drawing on paper to its ink, map it onto the palette and measure it from the even pixel `origin`."""
    bbox = ImageChops.difference(canvas, Image.new("RGB", canvas.size, PAPER)).getbbox()
    if bbox is None:
        return None
    picture = _quantize(canvas.crop(bbox))
    return picture, picture.point(_inked(), "1"), bbox[0] - origin[0], bbox[1] - origin[1]


@cache
def _inked() -> list[int]:
    """Return the lookup table that marks every palette index but paper's."""
    paper = _ink_index()[PAPER]
    return [0 if i == paper else 255 for i in range(256)]


@cache
def _indexed_water(width: int, height: int, cells: tuple[tuple[int, int], ...]) -> Image.Image:
    """Return the static layer mapped onto the fixed palette."""
    return _quantize(water(width, height, cells))


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


def _header(view: dict[str, Any], names: Sequence[str], width: int) -> list[Item]:
    """Lay out the title line: whose turn and what they do (the name shortened, never the verb), or the winners."""
    room = width - 2 * MARGIN
    if view["phase"] == "over":
        winners = [names[s] for s in view["winners"]]
        if not winners:
            return [Text((MARGIN, HEADER_H / 2), _("Game over · no winner"), HEADER_SIZE, True, "lm")]
        # TRANSLATORS: what joins the names of players who share the win in a picture's title ("Ana & Bo").
        joined = join_last(winners, pgettext("names sharing a win", " & "))
        title = ngettext("Game over · winner: {names}", "Game over · winners: {names}", len(winners), names=joined)
        # Whole names: on a second, smaller line when they do not fit on one.
        size, lines = fit_lines(title, room, (HEADER_SIZE, 22), bold=True)
        return [
            Text((MARGIN, HEADER_H / 2 + (i - (len(lines) - 1) / 2) * (size + 4)), line, size, True, "lm")
            for i, line in enumerate(lines)
        ]
    seat = view["to_act"][0]
    letter, placing = seat_letter(seat), view["phase"] == "placement"

    def line(name: str) -> str:
        if placing:
            return _("{name} ({letter}) places a penguin", name=name, letter=letter)
        return _("{name} ({letter}) to move", name=name, letter=letter)

    room -= 44 + 12
    # The whole name, on two smaller lines when it does not fit on one; only a name too long even for two
    # lines loses its end, never the action.
    size, lines = fit_named_lines(line, names[seat], room, (HEADER_SIZE, 22), bold=True)
    return [
        Marker(seat, (width - MARGIN - 22, HEADER_H / 2), 20),
        *(
            Text((MARGIN, HEADER_H / 2 + (i - (len(lines) - 1) / 2) * (size + 4)), text, size, True, "lm")
            for i, text in enumerate(lines)
        ),
    ]


@lru_cache(maxsize=1024)
def _width(text: str, size: int, bold: bool) -> float:
    """Return how wide a piece of game text (never a player's name, but in any language) is drawn."""
    return text_length(text, size, bold)


def _scores(view: dict[str, Any], names: Sequence[str], width: int, top: int) -> list[Item]:
    """Lay out one line per seat on the score panel at `top`: marker, name, fish, tiles and whether it still plays."""
    items: list[Item] = []
    for seat, info in enumerate(view["seats"]):
        y = top + 8 + seat * SEAT_ROW_H + SEAT_ROW_H / 2
        items.append(Marker(seat, (MARGIN + 16, y), 16))
        winner = seat in view["winners"]
        status = ""
        if info["resigned"]:
            status = pgettext("fish score", "resigned")
        elif info.get("out"):
            # TRANSLATORS: a seat whose penguins can no longer move.
            status = pgettext("fish score", "out")
        if info["to_place"]:
            status = ngettext("{n} to place", "{n} to place", info["to_place"])
        if winner:
            status = pgettext("fish score", "winner")
        counts = [ngettext("{n} fish", "{n} fish", info["fish"]), ngettext("{n} tile", "{n} tiles", info["tiles"])]
        score = " · ".join([*counts, status] if status else counts)
        items.append(Text((width - MARGIN, y), score, NAME_SIZE, winner, "rm"))
        room = width - 2 * MARGIN - 42 - _width(score, NAME_SIZE, winner) - 16
        size, lines = fit_lines(names[seat], room, (NAME_SIZE, 17), bold=True)
        for i, line in enumerate(lines):
            middle = y + (i - (len(lines) - 1) / 2) * (size + 2)
            items.append(Text((MARGIN + 42, middle), line, size, True, "lm"))
    return items
