"""Draw the fish board's pieces in full colour: the sea layer, seat markers, tiles and stranded-penguin ghosts."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from render.common import INK, PAPER, font, seat_colour, seat_letter, text_on
from render.fish.layout import (
    BADGE_DX,
    BADGE_SIZE,
    FISH_SIZE,
    HEADER_H,
    HEX_R,
    HIGHLIGHT,
    ICE,
    LABEL_DY,
    LABEL_SIZE,
    PENGUIN_DY,
    PENGUIN_R,
    SHAPES,
    WATER,
    WATER_LINE,
    centre,
    corners,
)


@cache
def water(width: int, height: int, cells: tuple[tuple[int, int], ...]) -> Image.Image:
    """Draw the static layer: sea, the outline of every board space and the header band."""
    image = Image.new("RGB", (width, height), WATER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, HEADER_H), fill=PAPER)
    for row, x in cells:
        draw.polygon(corners(*centre(row, x), HEX_R - 1), outline=WATER_LINE)
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


def penguin(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    """Draw one penguin: the seat's colour, shape and letter."""
    colour = seat_colour(seat)
    shape(draw, SHAPES[seat % len(SHAPES)], cx, cy, r, colour)
    dy = r * 0.15 if SHAPES[seat % len(SHAPES)] == "triangle" else 0
    draw.text((cx, cy + dy), seat_letter(seat), font=font(int(r * 1.1), bold=True), fill=text_on(colour), anchor="mm")


Sprite = tuple[Image.Image, Image.Image]
"""A picture drawn over water, and the mask of the pixels it covers."""


def hex_mask(size: int) -> Image.Image:
    """Return the mask of a tile's hexagon on a square sprite."""
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).polygon(corners(size / 2, size / 2, HEX_R - 2), fill=255)
    return mask


@cache
def tile_sprite(label: str, fish: int, seat: int | None) -> Sprite:
    """Draw one hex tile: ice with its label and fish count or penguin, or the label alone on water."""
    size = int(2 * HEX_R) + 2
    sprite = Image.new("RGB", (size, size), WATER)
    draw = ImageDraw.Draw(sprite)
    cx = cy = size / 2
    if fish:
        draw.polygon(corners(cx, cy, HEX_R - 2), fill=ICE[fish], outline=INK, width=2)
    label_colour = INK if fish else (170, 200, 230)
    draw.text((cx, cy + LABEL_DY), label, font=font(LABEL_SIZE, bold=True), fill=label_colour, anchor="mm")
    if seat is not None:
        penguin(draw, seat, cx, cy + PENGUIN_DY, PENGUIN_R)
        draw.text((cx + BADGE_DX, cy + PENGUIN_DY), str(fish), font=font(BADGE_SIZE, bold=True), fill=INK, anchor="mm")
    elif fish:
        draw.text((cx, cy + PENGUIN_DY), str(fish), font=font(FISH_SIZE, bold=True), fill=INK, anchor="mm")
    return sprite, hex_mask(size)


@cache
def ghost_sprite(seat: int) -> Sprite:
    """Draw a penguin just stranded and lifted off: its marker faded into the water, with a cross badge."""
    r = int(PENGUIN_R * 0.8)
    size = 2 * PENGUIN_R + 16
    marker = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    c = size / 2
    penguin(ImageDraw.Draw(marker), seat, c - 5, c, r)
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
