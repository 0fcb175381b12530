"""Nim with hidden cards: a test-only fourth game, found like the real ones when ICE_FLOE_GAMES names this package.

Its rules, pictures, computer player and cog live in this folder alone; tests/fourth_game/test_plugin.py plays it
through the loopback Discord and checks that nothing outside this folder had to change.
"""

from tests.fourth_game.rules import NimGame

GAME = NimGame()
COG = "tests.fourth_game.cog"
AI = "tests.fourth_game.ai:NimAI"

__all__ = ["AI", "COG", "GAME", "NimGame"]
