"""Hey, That's My Fish!: penguins on a shrinking hex board of ice floes.

board lays out and deals the 60 hexes, tables precomputes the bitmask tables, state holds a game, game applies
the rules, saves turns states into JSON and back, and text words events, turns and rules for players.
"""

from engine.fish.game import FishGame

GAME = FishGame()
COG = "cogs.fish"
AI = "ai.fish:FishAI"

__all__ = ["AI", "COG", "GAME", "FishGame"]
