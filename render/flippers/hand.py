"""Draw a seat's private Flippers hand picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from i18n import _, ngettext
from render.common import INK, PAPER, draw_text, fit_named, text_length
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

    team = info["team"]
    if text_length(_("{name}'s hand ({team})", name="", team=team), 30, True) > room * 0.6:
        team = info.get("short")

    def title(name: str) -> str:
        return _("{name}'s hand ({team})", name=name, team=team) if team else _("{name}'s hand", name=name)

    draw_text(
        draw, (HAND_PAD, 38), fit_named(title, _name(names, seat), 30, room, bold=True), 30, INK, bold=True, anchor="lm"
    )
    for i, card in enumerate(cards):
        sprite = _hand_card(seat, info["letter"], card["power"], card["power_name"], card["text"])
        _paste(image, sprite, HAND_PAD + i * (HAND_CARD + HAND_PAD) - 14, HAND_TOP - 14)
    if not cards:
        draw_text(draw, (HAND_PAD, HAND_TOP + HAND_CARD / 2), _("No cards in hand."), 28, FAINT, anchor="lm")
    foot = ngettext("Deck: {n} card left", "Deck: {n} cards left", info["deck_size"])
    if view.get("must_discard"):
        foot = ngettext(
            "Choose {n} to discard · {deck}", "Choose {n} to discard · {deck}", view["must_discard"], deck=foot
        )
    bold = bool(view.get("must_discard"))
    size = _fit(foot, 26, room, bold=bold)
    draw_text(draw, (HAND_PAD, HAND_TOP + HAND_CARD + 44), foot, size, INK, bold=bold, anchor="lm")
    return image


def render_hand(view: dict[str, Any], names: list[str]) -> bytes:
    """Return a seat's private hand as a PNG."""
    return _encode(_in_palette(draw_hand(view, names)))
