"""Keep the palette-mapped pieces a Flippers picture is pasted from: cards, cells, edges, words and names."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.flippers.table import column_label
from render.common import INK, PAPER, draw_text, seat_colour, text_length, text_on
from render.flippers.cards import (
    CELL,
    EDGE,
    FAINT,
    LABEL,
    MARKER_R,
    _centred,
    _draw_empty,
    _draw_explorer,
    _draw_food,
    _draw_marker,
    _fit,
)
from render.flippers.palette import _in_palette


@lru_cache(maxsize=1024)
def _explorer(team: int, letter: str, power: str, power_name: str, facing: str, face: str, state: str) -> Image.Image:
    """Return an Explorer card's cell, face up or face down, with its arrow tabs and its activation `state`."""
    return _in_palette(_draw_explorer(team, letter, power, power_name, facing, face, state))


@lru_cache(maxsize=256)
def _food(name: str, face: str, arrows: tuple[tuple[str, int], ...], marked: bool, name_size: int = 0) -> Image.Image:
    """Return a Food card's cell (`marked`: leave its first free corner to a Block marker), named at `name_size`."""
    return _in_palette(_draw_food(name, face, arrows, marked, name_size))


@cache
def _marker(team: int, letter: str, radius: int = MARKER_R) -> tuple[Image.Image, Image.Image]:
    """Return a team's Block marker in the palette, and the mask of its shape."""
    drawn = _draw_marker(team, letter, radius)
    on_paper = Image.new("RGB", drawn.size, PAPER)
    on_paper.paste(drawn, (0, 0), drawn)
    return _in_palette(on_paper), drawn.getchannel("A").point(lambda a: 255 if a > 127 else 0).convert("1")


@lru_cache(maxsize=1024)
def _empty(text: str, colour: tuple[int, int, int] | None, low: bool = False) -> Image.Image:
    """Return an open cell or a Leader cell."""
    return _in_palette(_draw_empty(text, colour, low))


@lru_cache(maxsize=256)
def _edge(first: int, count: int, columns: bool) -> Image.Image:
    """Draw the column letters (a strip above and below the grid) or row numbers (beside it) on paper."""
    size = (count * CELL, EDGE) if columns else (EDGE, count * CELL)
    image = Image.new("RGB", size, PAPER)
    draw = ImageDraw.Draw(image)
    for i in range(count):
        text = column_label(first + i) if columns else str(first + i)
        along = i * CELL + CELL / 2
        xy = (along, EDGE / 2) if columns else (EDGE / 2, along)
        _centred(draw, xy, text, _fit(text, LABEL, (CELL if columns else EDGE) - 4), FAINT, bold=True)
    return _in_palette(image)


def _paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste a sprite with its top-left corner at (x, y), through its transparency when it has any."""
    image.paste(sprite, (round(x), round(y)), sprite if sprite.mode == "RGBA" else None)


@lru_cache(maxsize=2048)
def _measure(text: str, size: int, bold: bool = False) -> float:
    """Return how wide a piece of game text (never a player's name, but in any language) is drawn."""
    return text_length(text, size, bold)


@lru_cache(maxsize=1024)
def _word(text: str, size: int, bold: bool = False, fill: tuple[int, int, int] = INK) -> Image.Image:
    """Draw a piece of game text (never a player's name) on paper, once, to be pasted where it is needed."""
    height = round(size * 1.3)
    image = Image.new("RGB", (max(1, round(_measure(text, size, bold)) + 2), height), PAPER)
    draw_text(ImageDraw.Draw(image), (1, height / 2), text, size, fill, bold=bold, anchor="lm")
    return _in_palette(image)


@lru_cache(maxsize=512)
def _named(text: str, size: int, bold: bool = False) -> Image.Image:
    """Draw a line holding players' names on paper, with the shared text helpers that render any script."""
    height = round(size * 1.3)
    image = Image.new("RGB", (max(1, round(text_length(text, size, bold)) + 2), height), PAPER)
    draw_text(ImageDraw.Draw(image), (1, height / 2), text, size, INK, bold=bold, anchor="lm")
    return _in_palette(image)


def _put(image: Image.Image, sprite: Image.Image, x: float, y: float, align: str = "l") -> None:
    """Paste a `_word` or `_named` line with its left ("l"), middle ("m") or right ("r") end at x, centred on y."""
    shift = {"l": 1, "m": sprite.width / 2, "r": sprite.width - 1}[align]
    _paste(image, sprite, x - shift, y - sprite.height / 2)


@cache
def _seat_badge(seat: int, letter: str, side: int) -> Image.Image:
    """Draw a seat's colour square with its letter, as in the score table."""
    image = Image.new("RGB", (side, side), PAPER)
    draw = ImageDraw.Draw(image)
    colour = seat_colour(seat)
    draw.rounded_rectangle((0, 0, side - 1, side - 1), radius=6, fill=colour, outline=INK, width=2)
    _centred(draw, (side / 2, side / 2), letter, round(side * 0.68), text_on(colour), bold=True)
    return _in_palette(image)
