"""Paint the Tank pictures' parts: sprites drawn once per process and pasted, the fixed palette, the page."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from render.common import INK, SEAT_COLOUR_NAMES, draw_text, fit_text, seat_colour, seat_letter, text_on
from render.tank.style import (
    BACKGROUND,
    BANNER,
    EMPTY,
    FAINT,
    GOURAMI_NOTE,
    HIGHLIGHT,
    KINDS,
    LINE,
    MET,
    MUTED,
    WATER,
    WHITE,
    WIDTH,
    Colour,
    code,
    short_name,
    size_to_fit,
    text_width,
)


def flatten(sprite: Image.Image, bg: Colour | None) -> Image.Image:
    """Return the sprite laid on a flat colour and mapped onto the palette, ready to paste; or as it is."""
    if bg is None:
        return sprite
    flat = Image.new("RGBA", sprite.size, (*bg, 255))
    flat.alpha_composite(sprite)
    return flat.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1024)
def text_sprite(text: str, size: int, bold: bool, fill: Colour, bg: Colour) -> tuple[Image.Image, int]:
    """Draw a line of text on a strip of colour `bg`; return it with the x where the text starts."""
    pad = 3
    width = int(text_width(text, size, bold)) + 2 * pad
    sprite = Image.new("RGBA", (max(width, 1), int(size * 1.4)), (0, 0, 0, 0))
    draw_text(ImageDraw.Draw(sprite), (pad, sprite.height / 2), text, size, fill, bold=bold, anchor="lm")
    return flatten(sprite, bg), pad


def put(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    *,
    bold: bool = False,
    anchor: str = "lm",
    bg: Colour = BACKGROUND,
) -> None:
    """Paste text at `xy` (anchor l/m/r then a/m) on a strip of `bg`, so only where the page is flat `bg`."""
    sprite, pad = text_sprite(text, size, bold, fill, bg)
    x, y = xy
    width = sprite.width - 2 * pad
    left = x - {"l": 0, "m": width / 2, "r": width}[anchor[0]]
    middle = y + size * 0.58 if anchor[1] == "a" else y
    paste(image, sprite, left - pad, middle - sprite.height / 2)


def rounded(size: tuple[int, int], radius: float, fill: Colour, outline: Colour | None, width: int) -> Image.Image:
    """Return a transparent sprite holding one rounded rectangle."""
    sprite = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(sprite).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=fill, outline=outline, width=width
    )
    return sprite


@cache
def seat_chip(seat: int, r: int, bg: Colour | None) -> Image.Image:
    """Draw a seat's colour disc with its letter."""
    colour = seat_colour(seat)
    side = 2 * r + 2
    sprite = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.ellipse((1, 1, side - 2, side - 2), fill=colour, outline=INK, width=2)
    draw_text(draw, (side / 2, side / 2), seat_letter(seat), int(r * 1.15), text_on(colour), bold=True, anchor="mm")
    return flatten(sprite, bg)


def kind_chip(kind: str, size: int, bg: Colour | None = None) -> Image.Image:
    """Draw a fish type's colour square with its code (in the current language)."""
    return _kind_chip(code(kind), KINDS[kind][1] if kind in KINDS else FAINT, size, bg)


@cache
def _kind_chip(letters: str, colour: Colour, size: int, bg: Colour | None) -> Image.Image:
    """Draw a colour square with a fish type's code, once per code, size and background."""
    sprite = rounded((size, size), size * 0.2, colour, INK, 2)
    points = size_to_fit(letters, size * 0.8, int(size * 0.5), bold=True, smallest=8)
    draw_text(ImageDraw.Draw(sprite), (size / 2, size / 2), letters, points, text_on(colour), bold=True, anchor="mm")
    return flatten(sprite, bg)


def card_sprite(kind: str, value: int | None, w: int, h: int) -> Image.Image:
    """Draw one face-up card: colour, big code, Molly value, and its name (in the current language)."""
    colour = KINDS[kind][1] if kind in KINDS else FAINT
    return _card_sprite(code(kind), colour, short_name(kind), value, w, h)


@cache
def _card_sprite(letters: str, colour: Colour, short: str, value: int | None, w: int, h: int) -> Image.Image:
    """Draw one face-up card from its code, colour and name, once per card face and size."""
    ink = text_on(colour)
    sprite = rounded((w, h), w * 0.1, colour, INK, 2)
    draw = ImageDraw.Draw(sprite)
    draw_text(
        draw,
        (w / 2, h * 0.5),
        letters,
        size_to_fit(letters, w * 0.8, int(w * 0.32), bold=True),
        ink,
        bold=True,
        anchor="mm",
    )
    if value is not None:
        r = w * 0.16
        cx, cy = w - r - w * 0.04, r + w * 0.04
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)
        draw_text(draw, (cx, cy), str(value), int(r * 1.4), INK, bold=True, anchor="mm")
    bold = text_width(short, max(16, int(w * 0.15)), True) <= w * 0.9
    label = size_to_fit(short, w * 0.9, max(16, int(w * 0.15)), bold=bold, smallest=16)
    if text_width(short, label, bold) > w * 0.9:
        short = fit_text(short, label, w * 0.9, bold)
    draw_text(draw, (w / 2, h - h * 0.13), short, label, ink, bold=bold, anchor="mm")
    return flatten(sprite, WATER)


@cache
def empty_slot(w: int, h: int) -> Image.Image:
    """Draw the outline left where a card was taken."""
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).rounded_rectangle((0, 0, w - 1, h - 1), radius=w * 0.1, outline=EMPTY, width=3)
    return flatten(sprite, WATER)


def paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste a sprite drawn in the palette with its top-left corner at (x, y)."""
    image.paste(sprite, (round(x), round(y)))


def chip(image: Image.Image, seat: int, cx: float, cy: float, r: int, bg: Colour | None = BACKGROUND) -> None:
    """Paste a seat chip centred on (cx, cy), laid on `bg`."""
    paste(image, seat_chip(seat, r, bg), cx - r - 1, cy - r - 1)


def drawn(parts: Callable[[Image.Image, ImageDraw.ImageDraw], int], height: int) -> Image.Image:
    """Draw on a page of the expected height; should the parts end elsewhere, draw again on one that fits."""
    image = page(height)
    end = parts(image, ImageDraw.Draw(image))
    if end != height:
        image = page(max(end, 2400))
        end = parts(image, ImageDraw.Draw(image))
        image = image.crop((0, 0, WIDTH, end))
    return image


def page(height: int) -> Image.Image:
    """Return a blank page drawn in the fixed palette: every colour drawn on it must be in the palette."""
    image = Image.new("P", (WIDTH, height), 0)
    image.putpalette(palette_data())
    return image


def palette_colours() -> list[Colour]:
    """Return every colour the pictures use: the flat ones, then the blends anti-aliased text makes on them."""
    flat = [BACKGROUND, INK, WATER, MUTED, FAINT, LINE, WHITE, EMPTY, HIGHLIGHT, BANNER, MET, GOURAMI_NOTE]
    fills = [seat_colour(seat) for seat in range(len(SEAT_COLOUR_NAMES))] + [c for _, c, _ in KINDS.values()]
    pairs = [(INK, bg) for bg in (BACKGROUND, WHITE, HIGHLIGHT, BANNER, MET, GOURAMI_NOTE, FAINT)]
    pairs += [(MUTED, BACKGROUND), (MUTED, WHITE), (MUTED, HIGHLIGHT), (FAINT, BACKGROUND), (WHITE, INK)]
    pairs += [(text_on(fill), fill) for fill in fills]
    colours = list(dict.fromkeys(flat + fills))
    for ink, bg in pairs:
        for step in range(1, 8):
            blend = tuple(round(b + (i - b) * step / 8) for i, b in zip(ink, bg, strict=True))
            colours.append((blend[0], blend[1], blend[2]))
    return list(dict.fromkeys(colours))[:256]


@cache
def palette_data() -> tuple[int, ...]:
    """Return the fixed palette as flat RGB values; index 0 is the page's background."""
    return tuple(channel for colour in palette_colours() for channel in colour)


@cache
def palette() -> Image.Image:
    """Return the fixed palette every picture is drawn in, so no picture needs a palette of its own."""
    palette = Image.new("P", (1, 1))
    palette.putpalette(palette_data())
    return palette
