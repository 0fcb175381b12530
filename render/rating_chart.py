"""Draw a player's rating over their latest rated games: one line per game, readable at 400 px wide."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n import _, ngettext
from i18n.numbers import number
from render.common import (
    INK,
    PAPER,
    clauses,
    draw_text,
    encode_png,
    fit_lines,
    fit_named_lines,
    fit_text,
    font,
    seat_colour,
)

WIDTH = 800
HEADER = 56
PANEL = 266
LEFT, RIGHT, TOP, BOTTOM = 84, 28, 46, 60
GRID = (210, 216, 224)


def _panel(draw: ImageDraw.ImageDraw, top: int, n: int, name: str, points: Sequence[float]) -> None:
    """Draw one game's rating line in the band starting at `top`, on its own scale."""
    colour = seat_colour(n)
    if points:
        heading = _("{game}: {rating}", game=name, rating=number(points[-1], ".1f"))
    else:
        heading = _("{game}: unrated", game=name)
    draw_text(draw, (LEFT, top + 8), fit_text(heading, 26, WIDTH - LEFT - RIGHT, bold=True), 26, INK, bold=True)
    low, high = (min(points), max(points)) if points else (0.0, 1.0)
    if high - low < 4:
        middle = (high + low) / 2
        low, high = middle - 2, middle + 2
    pad = (high - low) * 0.1
    low, high = low - pad, high + pad
    plot_w, plot_h = WIDTH - LEFT - RIGHT, PANEL - TOP - BOTTOM
    y0 = top + TOP

    def at(i: int, v: float) -> tuple[float, float]:
        x = LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)
        return x, y0 + plot_h * (high - v) / (high - low)

    label_font = font(22)
    for k in range(3):
        v = low + (high - low) * k / 2
        y = at(0, v)[1]
        draw.line((LEFT, y, WIDTH - RIGHT, y), fill=GRID, width=2)
        text = number(v, ".0f")
        draw.text((LEFT - 10 - label_font.getlength(text), y - 13), text, font=label_font, fill=INK)
    draw.rectangle((LEFT, y0, WIDTH - RIGHT, y0 + plot_h), outline=INK, width=2)
    xy = [at(i, v) for i, v in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=colour, width=6, joint="curve")
    if xy:
        x, y = xy[-1]
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=colour, outline=INK, width=2)
    if len(points) == 1:
        caption = _("after the first rated game")
    else:
        caption = ngettext(
            "after each of the last {n} rated game, oldest on the left",
            "after each of the last {n} rated games, oldest on the left",
            len(points),
        )
    # Two smaller lines rather than a cut: the caption's end says which side is oldest.
    size, lines = fit_lines(caption, WIDTH - LEFT - RIGHT, (22, 20))
    for i, line in enumerate(lines):
        draw_text(draw, (LEFT, y0 + plot_h + 6 + i * (size + 1)), line, size, INK)


def rating_chart(title: str, series: Sequence[tuple[str, Sequence[float]]], name: str = "") -> bytes:
    """Return a PNG with one band per (game title, conservative ratings oldest first), each on its own scale.

    The title, which holds the player's `name`, goes on two lines when it must; only the end of a name too long
    even for two is left out, never the words saying what the chart shows.
    """
    if name and name in title:
        start, end = title.split(name, 1)
        size, lines = fit_named_lines(lambda who: start + who + end, name, WIDTH - LEFT - RIGHT, (30, 26), bold=True)
    else:
        size, lines = fit_lines(title, WIDTH - LEFT - RIGHT, (30, 26), bold=True)
    header = HEADER + (size + 6) * (len(lines) - 1)
    image = Image.new("RGB", (WIDTH, header + PANEL * max(1, len(series))), PAPER)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw_text(draw, (LEFT, 12 + i * (size + 6)), line, size, INK, bold=True)
    for n, (game, points) in enumerate(series):
        _panel(draw, header + n * PANEL, n, game, points)
    return encode_png(image)


def chart_alt(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> str:
    """Describe the chart in words: per game, how many games it shows and where the rating started and ended."""
    parts = []
    for name, points in series:
        if not points:
            continue
        if len(points) == 1:
            parts.append(_("{game}: {rating} after 1 rated game", game=name, rating=number(points[0], ".1f")))
        else:
            parts.append(
                ngettext(
                    "{game}: from {first} to {last} over {n} rated game (lowest {lowest}, highest {highest})",
                    "{game}: from {first} to {last} over {n} rated games (lowest {lowest}, highest {highest})",
                    len(points),
                    game=name,
                    first=number(points[0], ".1f"),
                    last=number(points[-1], ".1f"),
                    lowest=number(min(points), ".1f"),
                    highest=number(max(points), ".1f"),
                )
            )
    if not parts:
        return _("{title}: no rated games yet.", title=title)
    return _("{title}. {games}.", title=title, games=clauses(parts))
