"""Open each user's DM channel once and remember it, so a DM costs one request, not two."""

from __future__ import annotations

from collections import OrderedDict

import discord

DM_CHANNELS_KEPT = 100_000
"""How many users' DM channel ids are remembered (discord.py itself keeps only its newest 128 DM channels)."""


class DirectMessages:
    """Hand out users' DM channels, opening each with Discord once."""

    def __init__(self, bot: discord.Client, most: int = DM_CHANNELS_KEPT) -> None:
        self.bot = bot
        self.most = most
        self.channels: OrderedDict[int, int] = OrderedDict()
        """User id -> the id of their DM channel with the bot (it never changes)."""

    async def channel(self, user_id: int) -> discord.abc.Messageable:
        """Return a user's DM channel, asking Discord to open it only the first time."""
        known = self.channels.get(user_id)
        if known is not None:
            self.channels.move_to_end(user_id)
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        channel = await self.bot.create_dm(discord.Object(user_id))
        self.channels[user_id] = channel.id
        while len(self.channels) > self.most:
            self.channels.popitem(last=False)
        return channel
