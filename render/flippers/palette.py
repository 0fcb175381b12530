"""Hold the fixed palette every Flippers picture is drawn in, and encode paletted pictures as PNG."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw

from render.common import INK, PAPER, font, palette_of, seat_colour
from render.flippers.cards import (
    CELL,
    FAINT,
    FOOD_INK,
    ICONS,
    OPEN,
    _draw_empty,
    _draw_explorer,
    _draw_food,
    _draw_marker,
    _hand_card,
)

Z_RLE = 3  # zlib strategy: run-length matching, several times faster than the default on flat pictures


def _encode(image: Image.Image) -> bytes:
    """Encode a paletted picture as a fast, small 8-bit PNG."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1, compress_type=Z_RLE)
    return buffer.getvalue()


def _in_palette(image: Image.Image) -> Image.Image:
    """Map a drawing onto the fixed palette, so it can be pasted straight into a paletted picture."""
    return image.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE)


@cache
def _index(colour: tuple[int, int, int]) -> int:
    """Return the palette entry closest to `colour`."""
    return int(_in_palette(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)) or 0)


@cache
def _palette() -> Image.Image:
    """Build the fixed palette once from reference pictures that use every colour a Flippers image can show."""
    reference = Image.new("RGB", (1800, 1200), PAPER)
    x = 0
    for team in range(6):
        letter = "CMEWLS"[team]
        for face, state in (("up", ""), ("up", "due"), ("up", "done"), ("down", "")):
            for power in ICONS:
                drawn = _draw_explorer(team, letter, power, power.title(), "N", face, state)
                reference.paste(drawn, (x % 1800, CELL * (x // 1800)))
                x += CELL
        marker = _draw_marker(team, letter)
        reference.paste(marker, (team * 40, 500), marker)
        card = _hand_card(team, letter, "flip", "Flip", "Flip it.")
        reference.paste(card, (team * 280, 560), card)
        reference.paste(_draw_empty("Z99", seat_colour(team)), (team * 90, 900))
    reference.paste(_draw_food("Lanternfish", "A", (("N", 1), ("E", 2), ("S", 3), ("W", 4))), (0, 1000))
    reference.paste(_draw_food("Krill", "B", (("N", 1),), True), (CELL, 1000))
    reference.paste(_draw_empty("Z99", None), (100, 1000))
    draw = ImageDraw.Draw(reference)
    for k, colour in enumerate((INK, FAINT, FOOD_INK, OPEN)):
        draw.text((400, 1000 + 40 * k), "Turn 12: Ana activates ▶ ★ 0123456789", font=font(28, True), fill=colour)
    return palette_of(reference, 256)
