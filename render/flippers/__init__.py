"""Draw a Flippers table and a private hand as PNG images, with alt text for each.

Modules, imports running one way: cards (full-colour drawings) <- palette <- sprites (cached pieces)
<- reading (what the view says) <- panel (points table) <- zoom (close-up of a wide table) <- table; hand;
alt (alt text).
"""

from __future__ import annotations

from render.flippers.alt import alt_text_hand, alt_text_table
from render.flippers.cards import CELL, EDGE, FOOD_INK, HAND_CARD, HAND_PAD, HAND_TOP, MIN_WIDTH
from render.flippers.hand import draw_hand, render_hand
from render.flippers.table import Layout, draw_table, layout, render_table

__all__ = [
    "CELL",
    "EDGE",
    "FOOD_INK",
    "HAND_CARD",
    "HAND_PAD",
    "HAND_TOP",
    "MIN_WIDTH",
    "Layout",
    "alt_text_hand",
    "alt_text_table",
    "draw_hand",
    "draw_table",
    "layout",
    "render_hand",
    "render_table",
]
