"""Play Flippers in Discord: slash commands, board menus, component routing and the private hand.

Modules, imports running one way: words <- options <- menus <- routing, private <- adapter <- cog.
"""

from __future__ import annotations

from cogs.flippers.adapter import FlippersAdapter
from cogs.flippers.cog import FlippersCog, setup
from cogs.flippers.menus import ACTIVATE, CARD, DISCARD, DISCARD_BUTTON, HAND_BUTTON, KEY, LEADER, PLAY_BUTTON, SPOT
from cogs.flippers.options import discard_options, discard_refs, hand_card, table_card

__all__ = [
    "ACTIVATE",
    "CARD",
    "DISCARD",
    "DISCARD_BUTTON",
    "HAND_BUTTON",
    "KEY",
    "LEADER",
    "PLAY_BUTTON",
    "SPOT",
    "FlippersAdapter",
    "FlippersCog",
    "discard_options",
    "discard_refs",
    "hand_card",
    "setup",
    "table_card",
]
