"""The "Play on the table" button under every board, when the operator configured the table (Discord Activity)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from i18n import _
from ui.components import button

TABLE_TOKEN = "table"
"""The button's token: a press opens the Activity (the LAUNCH_ACTIVITY response), whatever the board's version."""
ROOM = 25
"""A message holds five rows of five buttons; a select menu fills a row."""


def with_table_button(items: Sequence[discord.ui.Item[Any]], game_id: int, version: int) -> list[discord.ui.Item[Any]]:
    """Return a board's items with the "Play on the table" button added, when a row has room for it."""
    used = sum(item.width for item in items)
    if used + 1 > ROOM:
        return list(items)
    label = _("Play on the table")
    return [*items, button(game_id, version, TABLE_TOKEN, label, style=discord.ButtonStyle.primary, emoji="🐧")]


async def launch(interaction: discord.Interaction) -> None:
    """Answer a press with Discord's LAUNCH_ACTIVITY response: the table opens in the channel it was pressed in."""
    await interaction.response.launch_activity()
