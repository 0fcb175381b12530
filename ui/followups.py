"""Edit and delete the messages an interaction sent through that interaction's webhook, which Discord does not count.

Discord counts a bot's channel requests against its global limit (about 50 a second for the whole fleet), but
not those of an interaction's webhook (`/webhooks/{application}/{token}/...`). An interaction's token may edit
or delete what that interaction sent, its follow-ups and its original response (for a press on a board, with
the press acknowledged as an update: the board itself), for 15 minutes. So each such message is remembered with
its interaction's webhook, and a later edit (greying out a replaced board, a turn's board edited in place, a
stale ping deleted) goes through that webhook while the token lives; otherwise, or should Discord refuse it,
the caller edits through the channel as before.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord
from discord.webhook.async_ import async_context

log = logging.getLogger(__name__)

TOKEN_LIFE_S = 15 * 60
"""How long Discord accepts an interaction's token."""
MARGIN_S = 60.0
"""Stop using a token this long before it expires (an edit sent near the end may arrive too late)."""
KEPT = 2_000
"""How many messages are remembered (an older one is edited through the channel)."""
ORIGINAL = "@original"

EDITABLE_ORIGINAL = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)
"""Responses after which an interaction's original response is the message its component was on."""


class Followups:
    """Remember, by message id, the webhook of the interaction that sent (or owns) each message, while it lives."""

    def __init__(self, clock: Callable[[], float] = time.time, most: int = KEPT) -> None:
        """Keep up to `most` messages; `clock` (Unix seconds) tells how old their tokens are (tests move it)."""
        self.clock = clock
        self.most = most
        self.by_message: OrderedDict[int, tuple[discord.Interaction, int | str, float]] = OrderedDict()

    def sent(self, message_id: int, interaction: discord.Interaction) -> None:
        """Remember a follow-up an interaction sent."""
        self._keep(message_id, interaction, message_id)

    def answered(self, message_id: int, interaction: discord.Interaction) -> None:
        """Remember the message an interaction's response sent (its original response)."""
        self._keep(message_id, interaction, ORIGINAL)

    def pressed(self, interaction: discord.Interaction) -> None:
        """Remember the message a press was on, once the press was acknowledged as an update of that message."""
        message = interaction.message
        if message is None or message.flags.ephemeral or interaction.response.type not in EDITABLE_ORIGINAL:
            return
        self._keep(message.id, interaction, ORIGINAL)

    def _keep(self, message_id: int, interaction: discord.Interaction, target: int | str) -> None:
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        self.by_message[message_id] = (interaction, target, self.clock() - max(0.0, age))
        self.by_message.move_to_end(message_id)
        while len(self.by_message) > self.most:
            self.by_message.popitem(last=False)

    def owner(self, message_id: int | None) -> tuple[discord.Interaction, int | str] | None:
        """Return the interaction that may edit a message and how it names it, while its token lives; else None."""
        if message_id is None or (kept := self.by_message.get(message_id)) is None:
            return None
        interaction, target, created = kept
        if self.clock() > created + TOKEN_LIFE_S - MARGIN_S:
            del self.by_message[message_id]
            return None
        return interaction, target

    def forget(self, message_id: int) -> None:
        """Forget a message (deleted, or its webhook refused an edit)."""
        self.by_message.pop(message_id, None)

    async def edit(self, message_id: int | None, **changes: Any) -> bool:
        """Edit a message through its interaction's webhook; return False when the caller must use the channel."""
        if (found := self.owner(message_id)) is None:
            return False
        interaction, target = found
        try:
            if target == ORIGINAL:
                await interaction.edit_original_response(**changes)
            else:
                await interaction.followup.edit_message(int(target), **changes)
        except discord.HTTPException as exc:
            log.info("could not edit message %s through its interaction: %s", message_id, exc)
            self.forget(message_id or 0)
            return False
        return True

    async def edit_raw(self, message_id: int, payload: dict[str, Any]) -> bool:
        """Send a raw edit (say, components only) through the message's webhook; False: use the channel."""
        if (found := self.owner(message_id)) is None:
            return False
        interaction, target = found
        webhook = interaction.followup
        try:
            await async_context.get().edit_webhook_message(
                webhook.id,
                webhook.token or "",
                target,  # type: ignore[arg-type]
                session=webhook.session,
                proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth,
                payload=payload,
            )
        except discord.HTTPException as exc:
            log.info("could not edit message %s through its interaction: %s", message_id, exc)
            self.forget(message_id)
            return False
        return True

    async def delete(self, message_id: int) -> bool:
        """Delete a message through its interaction's webhook; return False when the caller must use the channel."""
        if (found := self.owner(message_id)) is None:
            return False
        interaction, target = found
        self.forget(message_id)
        try:
            if target == ORIGINAL:
                await interaction.delete_original_response()
            else:
                await interaction.followup.delete_message(int(target))
        except discord.HTTPException as exc:
            log.info("could not delete message %s through its interaction: %s", message_id, exc)
            return False
        return True
