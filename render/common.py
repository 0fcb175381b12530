"""Hold what every renderer shares: fonts, the seat palette and PNG encoding."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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


def text_length(text: str, size: int, bold: bool = False) -> float:
    """Return how wide `text` is drawn at `size` pixels."""
    return font(size, bold).getlength(text)


def fit_text(text: str, size: int, width: float, bold: bool = False) -> str:
    """Return `text`, shortened with an ellipsis when needed, so it is at most `width` pixels wide."""
    if text_length(text, size, bold) <= width:
        return text
    while text and text_length(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] | int,
    *,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    """Draw `text` (which may be a player's name in any script) at `xy` with the shipped fonts."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)
