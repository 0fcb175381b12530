"""Provide /tank split, take and discard, the board's selects and the private aquarium for 10 Gallon Tank.

Modules, imports running one way: words <- options <- adapter <- cog.
"""

from __future__ import annotations

from cogs.tank.adapter import TankAdapter
from cogs.tank.cog import TankCog, setup
from cogs.tank.options import discard_action, discard_choices, split_groups, split_lines, take_groups
from cogs.tank.words import KEEP, KEY

__all__ = [
    "KEEP",
    "KEY",
    "TankAdapter",
    "TankCog",
    "discard_action",
    "discard_choices",
    "setup",
    "split_groups",
    "split_lines",
    "take_groups",
]
