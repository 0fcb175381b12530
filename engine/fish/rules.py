"""Teach the fish rules in words, with every ruling the bot applies."""

from __future__ import annotations


def rules_text(title: str) -> str:
    """Return the rules in a few lines and the rulings the bot applies."""
    return (
        f"**{title}** (2-4 players)\n"
        "• Place your penguins one at a time on free 1-fish tiles "
        "(2 players: 4 each, 3 players: 3 each, 4 players: 2 each).\n"
        "• On your turn slide one penguin in a straight line along one of the six hex directions, "
        "as far as you like, never through water or another penguin; then take the tile it left.\n"
        "• Most fish wins; tie: most tiles; still tied: shared victory.\n"
        "**Rulings we apply**\n"
        "• Board: 60 hexes in rows of 7 and 8, labelled A1-A7, B1-B8 ... H1-H8.\n"
        "• Seats place and move in seat order, starting with the first seat.\n"
        "• A penguin with no legal move is removed at once (after every move and when placement ends); "
        "its owner takes its tile. A player with no penguins left is skipped.\n"
        "• `balanced` option: re-deal until no two 3-fish tiles touch and every row has a 2- or 3-fish tile.\n"
        "• A player who resigns loses their penguins (the tiles under them stay) and cannot win."
    )
