"""10 Gallon Tank: split a grid of fish cards into groups and draft them into a hidden aquarium."""

from __future__ import annotations

from engine.tank.game import TankGame

GAME = TankGame()
COG = "cogs.tank"
AI = "ai.tank:TankAI"

__all__ = ["AI", "COG", "GAME", "TankGame"]
