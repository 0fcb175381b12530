"""Provide /tank split, take and discard with their autocomplete, and load the tank adapter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.tank.adapter import TankAdapter
from cogs.tank.options import _noted, discard_action, discard_card_labels, split_groups, split_lines, take_groups
from cogs.tank.words import KEY
from engine.tank.state import TankState
from i18n import _
from storage.database import GameRow
from ui.adapter import register
from ui.bursts import MOVE
from ui.components import autocomplete
from ui.errors import UserError

if TYPE_CHECKING:
    from ui.flowbot import FlowBot


class TankCog(commands.Cog):
    """Let players split and take groups and make Gourami discards with slash commands."""

    tank = app_commands.Group(name="tank", description="10 Gallon Tank moves", guild_only=True)

    def __init__(self, bot: FlowBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    async def _mine(self, interaction: discord.Interaction) -> tuple[TankState, int] | None:
        """Return the state and the caller's seat of this channel's active tank game, or None."""
        return await self.flow.caller_seat(interaction, KEY)

    async def _game(self, interaction: discord.Interaction) -> GameRow:
        """Return this channel's active tank game, or refuse."""
        return await self.flow.active_game(interaction, KEY)

    @tank.command(
        name="split", description="Cut one group in two along a full row or column line", extras={MOVE: "public"}
    )
    @app_commands.describe(
        group="The group's number on the picture, e.g. 2", line="h1, h2… run between rows, v1, v2… between columns"
    )
    async def split(self, interaction: discord.Interaction, group: str, line: str) -> None:
        """Split a group."""
        action = {"type": "split", "group": group.strip(), "line": line.strip()}  # refused as typed, if refused
        await self.flow.act(interaction, await self._game(interaction), action)

    @tank.command(name="take", description="Take one group into your hidden aquarium", extras={MOVE: "public"})
    @app_commands.describe(group="The group's number on the picture, e.g. 3")
    async def take(self, interaction: discord.Interaction, group: str) -> None:
        """Take a group."""
        await self.flow.act(
            interaction, await self._game(interaction), {"type": "take", "group": group.strip()}
        )

    @tank.command(
        name="discard",
        description="Gourami: discard one fish you hold, or keep all (stays private)",
        extras={MOVE: "private"},
    )
    @app_commands.describe(card="A fish you hold, or keep all")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        """Discard a fish for a Gourami, or keep them all, privately."""
        row = await self._game(interaction)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        _game, state = self.flow.live(row)
        action = discard_action(state, seat, card)
        await self.flow.act(interaction, row, action, private_note=_noted(action))

    @split.autocomplete("group")
    async def split_group_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the groups the caller can split."""
        mine = await self._mine(interaction)
        return [] if mine is None else _choices(split_groups(*mine), current)

    @split.autocomplete("line")
    async def split_line_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the lines that cut the chosen group (or the only splittable group)."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        group = str(getattr(interaction.namespace, "group", "") or "").strip().upper()
        if not group:
            groups = split_groups(*mine)
            group = groups[0][1] if len(groups) == 1 else ""
        return _choices(split_lines(*mine, group), current)

    @take.autocomplete("group")
    async def take_group_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the groups the caller can take, with their cards."""
        mine = await self._mine(interaction)
        return [] if mine is None else _choices(take_groups(*mine), current)

    @discard.autocomplete("card")
    async def discard_card_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the fish the caller may discard, by name, and keep all."""
        mine = await self._mine(interaction)
        return [] if mine is None else _choices(discard_card_labels(*mine), current)


def _choices(options: Sequence[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Return up to 25 autocomplete choices whose label or value contains what was typed."""
    return autocomplete(options, current)


async def setup(bot: FlowBot) -> None:
    """Register the tank adapter and add the /tank commands."""
    register(TankAdapter())
    await bot.add_cog(TankCog(bot))
