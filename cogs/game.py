"""Provide /game: lobbies, status, hands, bots, reminders, history, records and rules for every game."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine.registry import games, packages
from storage.database import LOBBY, GameRow, GuildSettings
from ui import records
from ui.bots import LEVELS
from ui.errors import UserError
from ui.lifecycle import listing, missing_permissions
from ui.lobby import in_thread
from ui.scheduler import hours
from ui.text import embed_messages

if TYPE_CHECKING:
    from bot import IceFloeBot

GAME_CHOICES = [app_commands.Choice(name=p.game.title, value=key) for key, p in packages().items()]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
OPTION_HELP = {o.name: o.description for g in games().values() for o in g.options}
HOURS = app_commands.Range[float, 0.1, 720.0]


def _in_server(interaction: discord.Interaction) -> int:
    """Return the server id, or refuse a command used in direct messages."""
    if interaction.guild_id is None:
        raise UserError("Use this command in a server channel.")
    return interaction.guild_id


class GameCog(commands.Cog):
    """Run lobbies and the commands every game shares."""

    game = app_commands.Group(name="game", description="Play board games in this channel")

    def __init__(self, bot: IceFloeBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    # -- lobby ----------------------------------------------------------------------------------------

    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        balanced=OPTION_HELP.get("balanced", "Balanced board (Hey, That's My Fish!)"),
        teams=OPTION_HELP.get("teams", "Team Up (Flippers, 4 or 6 players)"),
        thread="Play in a new thread under this channel (default: the server's setting)",
        remind_after="Remind waiting players after this many hours (default: the server's setting)",
        timeout_after="After this many hours the computer moves for a waiting player (default: never)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        balanced: bool = False,
        teams: bool = False,
        thread: bool | None = None,
        remind_after: HOURS | None = None,
        timeout_after: HOURS | None = None,
    ) -> None:
        """Open a lobby with the caller as host."""
        settings = await self.flow.db.guild_settings(_in_server(interaction))
        thread = (settings.thread_default and not in_thread(interaction)) if thread is None else thread
        missing = missing_permissions(interaction.app_permissions, in_thread=in_thread(interaction), new_thread=thread)
        if missing:
            them = "it" if len(missing) == 1 else "them"
            raise UserError(
                f"I cannot run a game here: I am missing {listing(missing)} in this channel. "
                f"Ask a moderator to give me {them}, or start the game in another channel."
            )
        await self.flow.new_lobby(
            interaction,
            game.value,
            {"balanced": balanced, "teams": teams},
            thread=thread,
            reminder_hours=remind_after,
            timeout_hours=timeout_after,
        )

    @game.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        """Seat the caller."""
        await self.flow.join(interaction, await self._lobby(interaction))

    @game.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Unseat the caller."""
        await self.flow.leave(interaction, await self._lobby(interaction))

    @game.command(name="addbot", description="Seat a computer player in this channel's lobby (host only)")
    @app_commands.describe(level="easy: quick and beatable; hard: searches ahead")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None) -> None:
        """Seat a computer player."""
        await self.flow.add_bot(interaction, await self._lobby(interaction), level.value if level else "easy")

    @game.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Deal and post the first board."""
        await self.flow.start(interaction, await self._lobby(interaction))

    @game.command(name="cancel", description="Cancel this channel's game (host or Manage Server)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        """End the game without a result."""
        await self.flow.cancel(interaction, await self.flow.game_here(interaction))

    # -- during a game --------------------------------------------------------------------------------

    @game.command(name="status", description="Post the current board and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        """Re-post the board or the lobby."""
        await self.flow.repost(interaction, await self.flow.game_here(interaction))

    @game.command(name="resign", description="Leave the game in progress, or hand your seat to a computer player")
    @app_commands.describe(hand_to_bot="Let a computer player of this level play your seat instead")
    @app_commands.choices(hand_to_bot=LEVEL_CHOICES)
    async def resign(
        self, interaction: discord.Interaction, hand_to_bot: app_commands.Choice[str] | None = None
    ) -> None:
        """Take the caller out of the game."""
        row = await self.flow.game_here(interaction)
        await self.flow.resign(interaction, row, hand_to_bot.value if hand_to_bot else None)

    @game.command(name="hand", description="Show your private hand or aquarium (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Show the caller's private view."""
        await self.flow.show_hand(interaction, await self.flow.game_here(interaction))

    @game.command(name="notify", description="Turn reminders by direct message on or off for you")
    @app_commands.choices(
        setting=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def notify(self, interaction: discord.Interaction, setting: app_commands.Choice[str]) -> None:
        """Store the caller's DM reminder choice."""
        on = setting.value == "on"
        await self.flow.db.set_dm_reminders(interaction.user.id, on)
        text = "I will also remind you by direct message." if on else "Reminders will only be posted in channels."
        await interaction.response.send_message(text, ephemeral=True)

    # -- lists, history and records --------------------------------------------------------------------

    @game.command(name="list", description="List the games being played in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List open games with links and whose turn it is."""
        text = await records.list_games(self.flow, _in_server(interaction))
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="mine", description="List the games, in every server, that are waiting for you")
    async def mine(self, interaction: discord.Interaction) -> None:
        """List the caller's pending turns (also works in a DM with the bot)."""
        text = await records.my_turns(self.flow, interaction.user.id)
        await interaction.response.send_message(text, ephemeral=True)

    @game.command(name="history", description="Show a game's moves, a page at a time")
    @app_commands.describe(page="Which page (15 moves each)", game_number="A game number; default: this channel's")
    async def history(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1] = 1, game_number: int | None = None
    ) -> None:
        """Show the move log."""
        row = await records.pick_game(self.flow, interaction, game_number)
        text = await records.history(self.flow, row, page)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="replay", description="Replay a finished game as an animated image")
    @app_commands.describe(game_number="A game number; default: the latest game in this channel")
    async def replay(self, interaction: discord.Interaction, game_number: int | None = None) -> None:
        """Post an animated replay of a finished game."""
        row = await records.pick_game(self.flow, interaction, game_number)
        if row.status == LOBBY or not row.state:
            raise UserError("That game has not been played yet.")
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(file=await records.replay_file(self.flow, row))

    @game.command(name="stats", description="Show games played, wins and average score")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Show a player's record."""
        text = await records.stats_text(self.flow, user or interaction.user, interaction.guild_id)
        await interaction.response.send_message(text, ephemeral=True)

    @game.command(name="leaderboard", description="Show this server's best players of a game")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Rank players by wins."""
        text = await records.leaderboard_text(self.flow, _in_server(interaction), game.value)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="rules", description="Show a game's rules and the rulings this bot applies")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Reply with the whole rules text privately, in as many embeds and messages as it needs."""
        rules = games()[game.value]
        first, *more = embed_messages(f"{rules.title}: rules", rules.rules_text())
        await interaction.response.send_message(embeds=first, ephemeral=True)
        for embeds in more:
            await interaction.followup.send(embeds=embeds, ephemeral=True)

    @game.command(name="settings", description="Show or change this server's game defaults (Manage Server)")
    @app_commands.describe(
        reminder_hours="Remind waiting players after this many hours (default 12)",
        timeout_hours="Let the computer move for a player who waits this long; 0 turns timeouts off",
        thread_default="Start new games in their own thread",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_hours: HOURS | None = None,
        timeout_hours: app_commands.Range[float, 0.0, 720.0] | None = None,
        thread_default: bool | None = None,
    ) -> None:
        """Show or store the server's reminder delay, timeout and thread mode."""
        guild_id = _in_server(interaction)
        current = await self.flow.db.guild_settings(guild_id)
        changing = any(v is not None for v in (reminder_hours, timeout_hours, thread_default))
        if changing:
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                raise UserError("Only members with Manage Server can change the settings.")
            current = GuildSettings(
                reminder_hours if reminder_hours is not None else current.reminder_hours,
                current.timeout_hours if timeout_hours is None else (timeout_hours or None),
                current.thread_default if thread_default is None else thread_default,
            )
            await self.flow.db.save_guild_settings(guild_id, current)
        timeout = hours(current.timeout_hours) if current.timeout_hours else "off"
        text = (
            f"{'Saved. ' if changing else ''}Reminder after {hours(current.reminder_hours)} · timeout {timeout}"
            f" · new games in a thread: {'yes' if current.thread_default else 'no'}"
        )
        await interaction.response.send_message(text, ephemeral=True)

    async def _lobby(self, interaction: discord.Interaction) -> GameRow:
        """Return this channel's lobby, or refuse."""
        row = await self.flow.game_here(interaction)
        if row.status != LOBBY:
            raise UserError("The game in this channel has already started.")
        return row


async def setup(bot: IceFloeBot) -> None:
    """Add the /game commands."""
    await bot.add_cog(GameCog(bot))
