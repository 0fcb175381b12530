"""Flippers: penguins and seals jostle for food on an ever-shifting table of cards."""

from engine.flippers.game import FlippersGame

GAME = FlippersGame()

__all__ = ["GAME", "FlippersGame"]
