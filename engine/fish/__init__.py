"""Hey, That's My Fish!: penguins on a shrinking hex board of ice floes."""

from engine.fish.game import FishGame

GAME = FishGame()
COG = "cogs.fish"
AI = "ai.fish:FishAI"

__all__ = ["AI", "COG", "GAME", "FishGame"]
