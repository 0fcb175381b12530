"""Draw the Hey, That's My Fish! board: hex tiles, fish, penguins, scores and the last move.

layout places everything (geometry, number boxes, the arrow's path), sprites draws the pieces in full colour,
board puts them together on a fixed palette and encodes the PNG, and alt describes the board in words.
"""

from render.fish.alt import alt_text
from render.fish.board import draw_board, render_board

__all__ = ["alt_text", "draw_board", "render_board"]
