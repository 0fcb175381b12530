"""Draw Nim: the three piles with each seat's stones and cards in hand, and one seat's hidden cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    PAPER,
    SEAT_COLOUR_NAMES,
    draw_text,
    encode_png,
    fit_alt,
    fit_text,
    seat_colour,
    seat_letter,
    text_on,
)

WIDTH, HEIGHT = 640, 360
STONE = 26
STONE_COLOUR = (120, 128, 140)
CARD_COLOUR = (0, 114, 178)


def render_board(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the piles as stacks of stones and one line per seat, the seat to move marked with an arrow."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    for p, (pile, size) in enumerate(view["piles"].items()):
        x = 70 + p * 110
        for n in range(size):
            y = 200 - n * (STONE - 4)
            draw.ellipse((x, y, x + STONE * 2, y + STONE), fill=STONE_COLOUR, outline=INK, width=2)
        draw_text(draw, (x + STONE, 240), f"{pile}: {size}", 22, INK, bold=True, anchor="ma")
    for seat, name in enumerate(names):
        y = 30 + seat * 70
        colour = seat_colour(seat)
        draw.rounded_rectangle((410, y, 446, y + 36), 6, fill=colour, outline=INK, width=2)
        draw_text(draw, (428, y + 18), seat_letter(seat), 20, text_on(colour), bold=True, anchor="mm")
        arrow = "▶ " if seat in view["to_act"] else ""
        draw_text(draw, (456, y), fit_text(arrow + name, 18, 176, bold=True), 18, INK, bold=True)
        detail = f"{view['taken'][seat]} taken · {view['hand_sizes'][seat]} cards"
        draw_text(draw, (456, y + 22), "resigned" if view["resigned"][seat] else detail, 15, INK)
    footer = f"Move {view['moves'] + 1}" if view["phase"] != "over" else "Final board"
    draw_text(draw, (20, HEIGHT - 40), f"{footer} · {view['deck']} cards in the deck", 16, INK)
    return encode_png(image)


def alt_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the board for screen readers: piles, whose turn, stones taken and cards held (never their values)."""
    piles = ", ".join(f"pile {pile} {size}" for pile, size in view["piles"].items())
    if view["phase"] == "over":
        lead = f"Final board. {names[view['winner']]} took the last stone."
    else:
        lead = f"{names[view['to_act'][0]]} to take stones."
    seats = " ".join(
        f"{name} ({SEAT_COLOUR_NAMES[seat]} {seat_letter(seat)}): {view['taken'][seat]} taken, "
        f"{view['hand_sizes'][seat]} cards."
        for seat, name in enumerate(names)
    )
    return fit_alt(f"{lead} Stones left: {piles}. {seats}")


def render_hand(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw one seat's hidden cards, each with its value."""
    image = Image.new("RGB", (360, 200), PAPER)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (20, 14), "Your cards", 20, INK, bold=True)
    for i, card in enumerate(view["hand"]):
        x = 30 + i * 110
        draw.rounded_rectangle((x, 56, x + 90, 180), 10, fill=CARD_COLOUR, outline=INK, width=3)
        draw_text(draw, (x + 45, 118), str(card), 48, text_on(CARD_COLOUR), bold=True, anchor="mm")
    return encode_png(image)


def hand_alt(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe one seat's hidden cards."""
    return f"{names[view['seat']]}'s cards: {' and '.join(str(c) for c in view['hand'])}."
