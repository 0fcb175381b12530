"""Flippers as the bot played it with state schema 2: a frozen copy, used only to replay and show old games.

Never edit it: a game saved under these rules must keep its moves and outcome whatever the current rules say.
"""

from engine.legacy.flippers_v2.game import FlippersGame

RULES = FlippersGame()

__all__ = ["RULES", "FlippersGame"]
