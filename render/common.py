"""Hold what every renderer shares: fonts, the seat palette and PNG encoding."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"

# Okabe-Ito colour-blind-safe palette; each seat also gets a letter and a shape.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (240, 228, 66),  # yellow
    (213, 94, 0),  # vermillion
)
SEAT_COLOUR_NAMES = ("orange", "sky blue", "green", "purple", "yellow", "vermillion")
SEAT_LETTERS = "ABCDEF"
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon")
INK = (20, 24, 33)
PAPER = (248, 250, 252)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return the shipped DejaVu Sans at `size` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def seat_colour(seat: int) -> tuple[int, int, int]:
    """Return the palette colour of a seat."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_letter(seat: int) -> str:
    """Return the letter drawn on a seat's pieces."""
    return SEAT_LETTERS[seat % len(SEAT_LETTERS)]


def text_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Return black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else (255, 255, 255)


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode an image as PNG bytes, favouring speed; map it onto `palette` first when given."""
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def palette_of(reference: Image.Image, colours: int = 128) -> Image.Image:
    """Return a fixed palette drawn from a reference picture, so later pictures quantize fast."""
    return reference.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
