"""Draw a player's rating over their latest rated games: one line per game, readable at 400 px wide."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.common import INK, PAPER, draw_text, encode_png, fit_text, font, seat_colour

WIDTH = 800
HEADER = 56
PANEL = 250
LEFT, RIGHT, TOP, BOTTOM = 84, 28, 46, 44
GRID = (210, 216, 224)


def _panel(draw: ImageDraw.ImageDraw, top: int, n: int, name: str, points: Sequence[float]) -> None:
    """Draw one game's rating line in the band starting at `top`, on its own scale."""
    colour = seat_colour(n)
    now = f"{points[-1]:.1f}" if points else "unrated"
    draw_text(
        draw, (LEFT, top + 8), fit_text(f"{name}: {now}", 26, WIDTH - LEFT - RIGHT, bold=True), 26, INK, bold=True
    )
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
        text = f"{v:.0f}"
        draw.text((LEFT - 10 - label_font.getlength(text), y - 13), text, font=label_font, fill=INK)
    draw.rectangle((LEFT, y0, WIDTH - RIGHT, y0 + plot_h), outline=INK, width=2)
    xy = [at(i, v) for i, v in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=colour, width=6, joint="curve")
    if xy:
        x, y = xy[-1]
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=colour, outline=INK, width=2)
    if len(points) == 1:
        caption = "after the first rated game"
    else:
        caption = f"after each of the last {len(points)} rated games, oldest on the left"
    draw.text((LEFT, y0 + plot_h + 8), caption, font=label_font, fill=INK)


def rating_chart(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> bytes:
    """Return a PNG with one band per (game title, conservative ratings oldest first), each on its own scale."""
    image = Image.new("RGB", (WIDTH, HEADER + PANEL * max(1, len(series))), PAPER)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (LEFT, 12), fit_text(title, 30, WIDTH - LEFT - RIGHT, bold=True), 30, INK, bold=True)
    for n, (name, points) in enumerate(series):
        _panel(draw, HEADER + n * PANEL, n, name, points)
    return encode_png(image)


def chart_alt(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> str:
    """Describe the chart in words: per game, how many games it shows and where the rating started and ended."""
    parts = []
    for name, points in series:
        if not points:
            continue
        games = "game" if len(points) == 1 else "games"
        if len(points) == 1:
            parts.append(f"{name}: {points[0]:.1f} after 1 rated {games}")
        else:
            parts.append(
                f"{name}: from {points[0]:.1f} to {points[-1]:.1f} over {len(points)} rated {games}"
                f" (lowest {min(points):.1f}, highest {max(points):.1f})"
            )
    return f"{title}. " + "; ".join(parts) + "." if parts else f"{title}: no rated games yet."
