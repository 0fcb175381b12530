"""Remember the components recent messages were sent with, and grey them out without fetching the messages."""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import discord
from discord.http import MultipartParameters

from ui.components import greyed
from ui.followups import Followups

log = logging.getLogger(__name__)

SENT_KEPT = 2_000
"""How many messages' components are kept (an older message is fetched to be greyed out, or rebuilt)."""


class SentComponents:
    """Keep the components payload of the newest messages sent with menus, by message id."""

    def __init__(self, bot: discord.Client, most: int = SENT_KEPT, followups: Followups | None = None) -> None:
        self.bot = bot
        self.most = most
        self.followups = followups
        """Interactions whose webhook may edit a message (an edit Discord does not count); None: the channel only."""
        self.sent: OrderedDict[int, list[dict[str, Any]]] = OrderedDict()

    def remember(self, message_id: int, view: discord.ui.View | None) -> None:
        """Keep the components a message was sent (or edited) with; none when `view` is None."""
        self.sent[message_id] = [] if view is None else view.to_components()
        self.sent.move_to_end(message_id)
        while len(self.sent) > self.most:
            self.sent.popitem(last=False)

    def take(self, message_id: int) -> list[dict[str, Any]] | None:
        """Return and forget the components a message was sent with, or None when they are not known."""
        return self.sent.pop(message_id, None)

    async def grey_out(self, channel_id: int, message_id: int, components: list[dict[str, Any]]) -> None:
        """Replace a message's components by the same ones disabled (no Message is built from Discord's answer).

        A message an interaction sent is edited through that interaction's webhook while it lives.
        """
        if not components:
            return
        payload = {"components": greyed(components)}
        if self.followups is not None and await self.followups.edit_raw(message_id, payload):
            return
        params = MultipartParameters(payload=payload, multipart=None, files=None)
        try:
            await self.bot.http.edit_message(channel_id, message_id, params=params)
        except discord.HTTPException as exc:
            log.info("could not grey out message %s in %s: %s", message_id, channel_id, exc)
