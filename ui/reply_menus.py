"""Grey out the game menus answered privately (ephemeral replies) once they are replaced or their game closes.

Only the interaction's token can edit an ephemeral message, and Discord keeps it 15 minutes. So every reply that
carries a live menu of a game (an answered `/game hand`, a private pick-a-spot menu) is saved with its token
(storage/menus.py), read back when the game ends, is cancelled or is abandoned (after a restart too), and edited
through the interaction's webhook with its menus disabled, as DM menus are (ui/private.py). A newer reply of the
same player in the same game greys out the older ones. Tokens about to expire are never used: their rows are
pruned whenever a reply is saved and at every check of the answer keeper (every 5 s, ui/answers.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from storage.database import OPEN, Database, StorageError
from storage.menus import ReplyMenu, forget_replies, forget_replies_before, remember_reply, reply_menus
from ui.components import FloeComponent

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

TOKEN_LIFE_S = 15 * 60
"""How long Discord accepts edits through an interaction's token."""
MARGIN_S = 30.0
"""Leave a token alone this long before it expires: an edit sent later may arrive too late."""
USABLE_S = TOKEN_LIFE_S - MARGIN_S
ORIGINAL = "@original"


def greyed_view(message: discord.Message) -> discord.ui.View | None:
    """Return a message's components with every live one disabled, or None when none is live."""
    view = discord.ui.View.from_message(message, timeout=None)
    live = [item for item in view.children if getattr(item, "disabled", True) is False]
    if not live:
        return None
    for item in live:
        item.disabled = True  # type: ignore[attr-defined]
    view.stop()  # nothing listens to a greyed-out copy: sending it must not keep it in the client's view store
    return view


def game_of(view: discord.ui.View | None) -> int | None:
    """Return the game whose live menu a view carries (from its custom ids), or None."""
    for item in view.children if view is not None else ():
        inner = getattr(item, "item", item)  # a FloeComponent wraps the button or select
        match = FloeComponent.__discord_ui_compiled_template__.fullmatch(getattr(inner, "custom_id", None) or "")
        if match is not None and not getattr(inner, "disabled", False):
            return int(match["game"])
    return None


async def menu_sent(interaction: discord.Interaction, view: discord.ui.View | None, message_id: int | None) -> None:
    """Note that an interaction's original response (message `message_id`, if known) is a private `view`."""
    replies: ReplyMenus = interaction.client.flow.private.replies  # type: ignore[attr-defined]
    await replies.sent(interaction, view, message_id)


class ReplyMenus:
    """Record the ephemeral replies that carry a live game menu and grey them out when they go stale."""

    def __init__(self, bot: commands.Bot, db: Database) -> None:
        self.bot = bot
        self.db = db

    def now(self) -> float:
        """Return the database's clock as Unix time (tests move it)."""
        return self.db.clock().timestamp()

    async def sent(
        self,
        interaction: discord.Interaction,
        view: discord.ui.View | None,
        message_id: int | None = None,
        *,
        original: bool = True,
    ) -> None:
        """Note a private answer carrying `view`, when it is a live menu of a game; grey the player's older ones.

        `message_id` is the answer's message (looked up when not given); `original`: it is the interaction's
        original response (an answer, or a thinking placeholder's follow-up) rather than a later follow-up.
        Best effort: a menu left live is refused when pressed anyway, so failures are logged and go no further.
        """
        game_id = game_of(view)
        if game_id is None:
            return
        try:
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except discord.HTTPException as exc:
            log.info("the private menu answering interaction %s was not found: %s", interaction.id, exc)
            return
        # The token lives from the interaction's creation; the database's clock stands in for the wall clock.
        sent_at = min(self.now(), interaction.created_at.timestamp())
        reply = ReplyMenu(
            message_id, interaction.application_id, interaction.token, original, game_id, interaction.user.id, sent_at
        )
        try:
            await remember_reply(self.db, reply)
            await self.prune()
            mine = await reply_menus(self.db, game_id, reply.user_id)
            row = await self.db.game(game_id)
        except StorageError as exc:
            log.info("the private menu %s of game %s was not remembered: %s", message_id, game_id, exc)
            return
        stale = [r for r in mine if r.message_id != message_id]
        if row is None or row.status not in OPEN:
            stale.append(reply)  # the game closed while this answer was on its way
        await self._close(stale)

    async def close(self, game_id: int) -> None:
        """Grey out every recorded private answer of a game that closed, and forget them."""
        try:
            replies = await reply_menus(self.db, game_id)
        except StorageError as exc:
            log.info("the private answers of game %s were not looked up: %s", game_id, exc)
            return
        await self._close(replies)

    async def prune(self) -> int:
        """Forget every reply whose token is about to expire (it can no longer be edited); return how many."""
        return await forget_replies_before(self.db, self.now() - USABLE_S)

    async def _close(self, replies: Sequence[ReplyMenu]) -> None:
        """Grey out the replies whose token still lives, then forget them all."""
        usable_after = self.now() - USABLE_S
        for reply in replies:
            if reply.sent_at > usable_after:
                await self._grey(reply)
        try:
            await forget_replies(self.db, *(r.message_id for r in replies))
        except StorageError as exc:
            log.info("%d private answers were not forgotten: %s", len(replies), exc)

    async def _grey(self, reply: ReplyMenu) -> None:
        """Edit one reply through its interaction's webhook with its menus disabled (quietly, if Discord refuses)."""
        webhook = discord.Webhook.partial(reply.application_id, reply.token, client=self.bot)
        target: Any = ORIGINAL if reply.original else reply.message_id
        try:
            view = greyed_view(await webhook.fetch_message(target))
            if view is not None:
                await webhook.edit_message(target, view=view)
        except discord.HTTPException as exc:  # expired (401), deleted or dismissed (404): nothing left to grey
            log.info("the private menu %s of game %s was not greyed out: %s", reply.message_id, reply.game_id, exc)
