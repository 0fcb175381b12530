"""Flippers: penguins and seals jostle for food on an ever-shifting table of cards."""

from engine.flippers.game import FlippersGame

GAME = FlippersGame()
COG = "cogs.flippers"
AI = "ai.flippers:FlippersAI"

__all__ = ["AI", "COG", "GAME", "FlippersGame"]
