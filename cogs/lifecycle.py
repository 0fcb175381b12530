"""Pass Discord's news about channels, threads, roles and servers to the games' lifecycle; answer stray presses."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ui.unclaimed import answer_unclaimed

if TYPE_CHECKING:
    from ui.flowbot import FlowBot


class LifecycleCog(commands.Cog):
    """End games whose channel, thread or server is gone; resume paused games when permissions change."""

    def __init__(self, bot: FlowBot) -> None:
        self.bot = bot
        self.lifecycle = bot.flow.lifecycle

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a press or form that no handler takes (forged, or left from a removed feature)."""
        await answer_unclaimed(self.bot, interaction)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """End the game of a deleted channel."""
        await self.lifecycle.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """End the game of a deleted thread (archived threads too, which are not cached)."""
        await self.lifecycle.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """End every open game of a server the bot was removed from."""
        await self.lifecycle.guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        """Resume paused games once a changed channel lets the bot post again."""
        await self.lifecycle.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Resume paused games once an unlocked or changed thread lets the bot post again."""
        await self.lifecycle.permissions_changed(payload.guild_id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """Resume paused games once a changed role lets the bot post again."""
        await self.lifecycle.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction, command: app_commands.Command) -> None:
        """Tell whoever used a command in a paused game's channel why the game waits (once)."""
        await self.lifecycle.after_interaction(interaction)


async def setup(bot: FlowBot) -> None:
    """Listen for channel, thread, role and server changes."""
    await bot.add_cog(LifecycleCog(bot))
