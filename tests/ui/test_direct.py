"""A user's DM channel is opened with Discord once, then remembered (up to a bound)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from ui.direct import DirectMessages


class Bot:
    """Count the DM channels opened; hand out partial channels for known ids."""

    def __init__(self) -> None:
        self.opened: list[int] = []

    async def create_dm(self, user: Any) -> Any:
        self.opened.append(user.id)
        return SimpleNamespace(id=user.id + 1000)

    def get_partial_messageable(self, channel_id: int, *, type: discord.ChannelType) -> Any:
        return SimpleNamespace(id=channel_id, type=type)


async def test_a_second_dm_to_a_user_opens_no_channel_and_old_ones_are_forgotten() -> None:
    bot = Bot()
    dms = DirectMessages(bot, most=2)  # type: ignore[arg-type]
    first = await dms.channel(1)
    again = await dms.channel(1)
    assert (first.id, again.id, again.type) == (1001, 1001, discord.ChannelType.private)
    await dms.channel(2)
    await dms.channel(3)  # user 1 is forgotten: three are more than two
    await dms.channel(1)
    assert bot.opened == [1, 2, 3, 1]
