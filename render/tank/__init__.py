"""Draw 10 Gallon Tank: the public table, a player's own aquarium, the final scores, and their alt text.

Modules, imports running one way: style (sizes, colours, kinds, text helpers) <- paint (sprites, palette, page)
<- final <- table; aquarium; alt (screen-reader text, from all three).
"""

from __future__ import annotations

from render.tank.alt import alt_text_aquarium, alt_text_final, alt_text_table, scoring_lines
from render.tank.aquarium import aquarium_height, aquarium_rows, aquarium_total, draw_aquarium, render_aquarium
from render.tank.final import draw_final, final_height, render_final
from render.tank.table import draw_table, order_rows, render_table, table_height

__all__ = [
    "alt_text_aquarium",
    "alt_text_final",
    "alt_text_table",
    "aquarium_height",
    "aquarium_rows",
    "aquarium_total",
    "draw_aquarium",
    "draw_final",
    "draw_table",
    "final_height",
    "order_rows",
    "render_aquarium",
    "render_final",
    "render_table",
    "scoring_lines",
    "table_height",
]
