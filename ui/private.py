"""Deliver what one seat alone may see: by DM after each change, or privately on request."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import discord

from i18n import _, using
from storage.database import LOBBY, Database, GameRow, StorageError
from storage.menus import forget_menu, live_menus, remember_menu
from ui.adapter import Board, Picture, adapter_for
from ui.components import view_of
from ui.direct import DirectMessages
from ui.errors import UserError
from ui.language import dm_language
from ui.loading import GameLoader
from ui.mentions import command
from ui.rendering import Renderer
from ui.reply_menus import ReplyMenus, greyed_view
from ui.sent import SentComponents
from ui.text import lines_within

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class PrivateMessages:
    """Send private hands and aquariums by DM, with `/game hand` as the fallback for closed DMs."""

    def __init__(self, bot: commands.Bot, db: Database, loader: GameLoader, renderer: Renderer) -> None:
        self.bot = bot
        self.db = db
        self.loader = loader
        self.renderer = renderer
        self.dms = DirectMessages(bot)
        self.sent = SentComponents(bot)
        """The components the newest DM menus were sent with, to grey them out without fetching them."""
        self.with_menus: set[int] = set()
        """Games this process sent a DM menu for: only their stale menus are looked up after each board."""
        self.replies = ReplyMenus(bot, db)
        """The ephemeral answers (`/game hand`, private menus) that carry a live menu, greyed out with the game."""

    async def message(self, board: Board, seat: int) -> tuple[str, Picture | None]:
        """Return the text and picture of what one seat alone may see."""
        adapter = adapter_for(board.row.kind)
        view = board.game.view(board.state, seat)
        picture = await self.renderer.draw(adapter, "private_picture", view, board.names)
        return adapter.private_text(view, board.names), picture

    async def show_hand(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Show the caller their private view, ephemerally."""
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        if row.status == LOBBY:
            raise UserError(_("The game has not started yet."))
        board = self.loader.board(row)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, picture = await self.message(board, seat)
        kwargs: dict[str, Any] = {"content": lines_within(text.split("\n")), "ephemeral": True}
        if picture is not None:
            kwargs["file"] = picture.file()
        view = view_of(adapter_for(row.kind).private_items(board, seat))
        if view is not None:
            kwargs["view"] = view
        sent = await interaction.followup.send(**kwargs)
        await self.replies.sent(interaction, view, sent.id)  # the thinking placeholder's answer: its @original

    async def send(self, board: Board, seat: int) -> bool:
        """DM a seat its private view in its player's language; if their DMs are closed, say so in the channel."""
        if board.row.seats[seat].is_bot:
            return False
        with using(await dm_language(self.db, board.row.seats[seat].user_id)):
            return await self._send(board, seat)

    async def _send(self, board: Board, seat: int) -> bool:
        """DM a seat its private view; if its DMs are closed, tell it in the channel to use /game hand."""
        user_id = board.row.seats[seat].user_id
        text, picture = await self.message(board, seat)
        heading = _("**{title}** (game #{id})", title=board.game.title, id=board.row.id)
        kwargs: dict[str, Any] = {"content": lines_within([heading, *text.split("\n")])}
        if picture is not None:
            kwargs["file"] = picture.file()
        view = view_of(adapter_for(board.row.kind).private_items(board, seat))
        if view is not None:
            kwargs["view"] = view
        try:
            channel = await self.dms.channel(user_id)
            sent = await channel.send(**kwargs)
            if view is not None:
                self.sent.remember(sent.id, view)
                await self._remember(board.row.id, board.version, channel.id, sent.id)
            return True
        except discord.Forbidden:
            key = f"dm_closed:{board.row.id}:{user_id}"
            if await self.db.get_meta(key) is None:
                await self.db.set_meta(key, "1")
                try:
                    with using(board.row.language):
                        await self.bot.get_partial_messageable(board.row.channel_id).send(
                            _(
                                "{mention}, I cannot DM you (your DMs are closed). "
                                "Use {command} here to see your hand privately.",
                                mention=f"<@{user_id}>",
                                command=command("game hand"),
                            ),
                            allowed_mentions=MENTION_USERS,
                        )
                except discord.HTTPException as exc:  # the channel refuses too: the board's own post says why
                    log.info("closed-DM notice for game %s not posted: %s", board.row.id, exc)
            return False

    async def _remember(self, game_id: int, version: int, channel_id: int, message_id: int) -> None:
        """Note a DM with a live menu, so it is greyed out later (best effort: it is refused when stale anyway)."""
        self.with_menus.add(game_id)
        try:
            await remember_menu(self.db, game_id, version, channel_id, message_id)
        except StorageError as exc:
            log.info("private menu %s of game %s not remembered: %s", message_id, game_id, exc)

    async def close_stale_menus(self, game_id: int, version: int, keep: Collection[int] = ()) -> None:
        """Grey out the DM menus this process sent for a game before `version`, except the `keep` users' ones."""
        if game_id in self.with_menus:
            await self.close_menus(game_id, version, keep)

    async def close_menus(self, game_id: int, older_than: int | None = None, keep: Collection[int] = ()) -> None:
        """Grey out a game's live DM menus: all of them (the game ended), or those older than a version.

        The menus in the DMs of the `keep` users stay live (a choice they still have to make while others act).

        When the game ended (no version given), its answered ephemeral menus (`/game hand`) are greyed out too.
        Best effort: a stale menu is refused when pressed anyway, so a database or Discord failure here is
        logged and never stops the board or the answer that caused it.
        """
        if older_than is None:
            await self.replies.close(game_id)
        try:
            menus = await live_menus(self.db, game_id, older_than)
        except StorageError as exc:
            log.info("private menus of game %s not looked up: %s", game_id, exc)
            return
        kept = set()
        for user_id in keep:
            try:
                kept.add((await self.dms.channel(user_id)).id)
            except discord.HTTPException as exc:  # which menu is theirs is unknown: grey out none this time
                log.info("DM channel of user %s unknown, no menu of game %s greyed out: %s", user_id, game_id, exc)
                return
        for channel_id, message_id in menus:
            if channel_id in kept:
                continue
            sent = self.sent.take(message_id)
            try:
                if sent is not None:
                    await self.sent.grey_out(channel_id, message_id, sent)
                else:  # sent before a restart, or long ago: read what it shows
                    message = await self.bot.get_partial_messageable(channel_id).fetch_message(message_id)
                    if (view := greyed_view(message)) is not None:
                        await message.edit(view=view)
            except discord.HTTPException as exc:  # deleted, or DMs closed since: nothing left to grey out
                log.info("private menu %s of game %s not greyed out: %s", message_id, game_id, exc)
            try:
                await forget_menu(self.db, message_id)
            except StorageError as exc:
                log.info("private menu %s of game %s not forgotten: %s", message_id, game_id, exc)
                return
