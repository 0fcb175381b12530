"""Provide /game: lobbies, status, hands, resigning, cancelling and rules for every game."""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine.registry import games
from storage.database import LOBBY, GameRow
from ui.errors import UserError

if TYPE_CHECKING:
    from bot import IceFloeBot

GAME_CHOICES = [
    app_commands.Choice(name=g.title, value=g.key) for g in games().values() if find_spec(f"cogs.{g.key}") is not None
]
OPTION_HELP = {o.name: o.description for g in games().values() for o in g.options}


class GameCog(commands.Cog):
    """Run lobbies and the commands every game shares."""

    game = app_commands.Group(name="game", description="Play board games in this channel", guild_only=True)

    def __init__(self, bot: IceFloeBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        balanced=OPTION_HELP.get("balanced", "Balanced board (Hey, That's My Fish!)"),
        teams=OPTION_HELP.get("teams", "Team Up (Flippers, 4 or 6 players)"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        balanced: bool = False,
        teams: bool = False,
    ) -> None:
        """Open a lobby with the caller as host."""
        await self.flow.new_lobby(interaction, game.value, {"balanced": balanced, "teams": teams})

    @game.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        """Seat the caller."""
        await self.flow.join(interaction, await self._lobby(interaction))

    @game.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Unseat the caller."""
        await self.flow.leave(interaction, await self._lobby(interaction))

    @game.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Deal and post the first board."""
        await self.flow.start(interaction, await self._lobby(interaction))

    @game.command(name="cancel", description="Cancel this channel's game (host or Manage Server)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        """End the game without a result."""
        await self.flow.cancel(interaction, await self.flow.game_here(interaction))

    @game.command(name="status", description="Post the current board and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        """Re-post the board or the lobby."""
        await self.flow.repost(interaction, await self.flow.game_here(interaction))

    @game.command(name="resign", description="Leave the game in progress")
    async def resign(self, interaction: discord.Interaction) -> None:
        """Take the caller out of the game."""
        await self.flow.resign(interaction, await self.flow.game_here(interaction))

    @game.command(name="hand", description="Show your private hand or aquarium (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Show the caller's private view."""
        await self.flow.show_hand(interaction, await self.flow.game_here(interaction))

    @game.command(name="rules", description="Show a game's rules and the rulings this bot applies")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Reply with the rules privately."""
        await interaction.response.send_message(games()[game.value].rules_text()[:2000], ephemeral=True)

    async def _lobby(self, interaction: discord.Interaction) -> GameRow:
        """Return this channel's lobby, or refuse."""
        row = await self.flow.game_here(interaction)
        if row.status != LOBBY:
            raise UserError("The game in this channel has already started.")
        return row


async def setup(bot: IceFloeBot) -> None:
    """Add the /game commands."""
    await bot.add_cog(GameCog(bot))
