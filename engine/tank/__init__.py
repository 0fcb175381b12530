"""10 Gallon Tank: split a grid of fish cards into groups and draft them into a hidden aquarium."""

from __future__ import annotations

from engine.tank.game import TankGame

GAME = TankGame()

__all__ = ["GAME", "TankGame"]
