"""Hey, That's My Fish!: penguins on a shrinking hex board of ice floes."""

from engine.fish.game import FishGame

GAME = FishGame()

__all__ = ["GAME", "FishGame"]
