"""Draw a seat's private Flippers hand picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, PAPER, draw_text, fit_text, font, text_length
from render.flippers.cards import FAINT, HAND_CARD, HAND_PAD, HAND_TOP, MIN_WIDTH, _fit, _hand_card
from render.flippers.palette import _encode, _in_palette
from render.flippers.reading import _name
from render.flippers.sprites import _paste


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw a seat's private hand: each card large, with what its power does."""
    seat = view["you"]
    cards = view["hand"]
    info = view["seats"][seat]
    width = max(MIN_WIDTH, HAND_PAD + max(len(cards), 1) * (HAND_CARD + HAND_PAD))
    height = HAND_TOP + HAND_CARD + 78
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    room = width - 2 * HAND_PAD
    tail = f"'s hand ({info['team']})"
    if font(30, True).getlength(tail) > room * 0.6:
        tail = f"'s hand ({info['short']})" if "short" in info else "'s hand"
    who = fit_text(_name(names, seat), 30, room - font(30, True).getlength(tail), bold=True)
    draw_text(draw, (HAND_PAD, 38), who, 30, INK, bold=True, anchor="lm")
    draw.text((HAND_PAD + text_length(who, 30, True), 38), tail, font=font(30, bold=True), fill=INK, anchor="lm")
    for i, card in enumerate(cards):
        sprite = _hand_card(seat, info["letter"], card["power"], card["power_name"], card["text"])
        _paste(image, sprite, HAND_PAD + i * (HAND_CARD + HAND_PAD) - 14, HAND_TOP - 14)
    if not cards:
        draw.text((HAND_PAD, HAND_TOP + HAND_CARD / 2), "No cards in hand.", font=font(28), fill=FAINT, anchor="lm")
    foot = f"Deck: {info['deck_size']} card{'s' if info['deck_size'] != 1 else ''} left"
    if view.get("must_discard"):
        foot = f"Choose {view['must_discard']} to discard · " + foot
    size = _fit(foot, 26, room, bold=bool(view.get("must_discard")))
    bold = bool(view.get("must_discard"))
    draw.text((HAND_PAD, HAND_TOP + HAND_CARD + 44), foot, font=font(size, bold), fill=INK, anchor="lm")
    return image


def render_hand(view: dict[str, Any], names: list[str]) -> bytes:
    """Return a seat's private hand as a PNG."""
    return _encode(_in_palette(draw_hand(view, names)))
