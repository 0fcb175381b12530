"""Post boards to a game's channel: the new board with its summary and ping, then retire the old one."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from engine.base import Event
from storage.database import Database, GameRow
from ui.adapter import Board, Picture, adapter_for
from ui.components import button, view_of
from ui.errors import UserError
from ui.loading import GameLoader
from ui.locks import GameLocks
from ui.private import PrivateMessages
from ui.rendering import Renderer

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def board_content(board: Board, events: Sequence[Event]) -> str:
    """Write a board message's text: what just happened, then whose turn it is (with a ping) or the result."""
    game, names = board.game, board.names
    lines = [text for e in events if e.private_to is None and (text := game.describe(e, names))]
    if game.is_over(board.state):
        outcome = game.outcome(board.state)
        lines.append("**Final standings**")
        lines += adapter_for(board.row.kind).standings_lines(outcome, names)
        if outcome.tiebreak:
            lines.append(outcome.tiebreak)
        winners = " and ".join(board.row.seats[s].mention for s in outcome.winners)
        lines.append(f"Congratulations {winners}!" if winners else "Nobody wins this time.")
    else:
        lines.append(game.status(board.state, names))
        waiting = [board.row.seats[s] for s in game.to_act(board.state)]
        people = " ".join(seat.mention for seat in waiting if not seat.is_bot)
        if people:
            lines.append(f"{people}, it's your turn.")
    return "\n".join(lines)[:2000]


class Publisher:
    """Post each new board once, in order per game, and send the private updates it causes."""

    def __init__(
        self,
        bot: commands.Bot,
        db: Database,
        loader: GameLoader,
        renderer: Renderer,
        private: PrivateMessages,
        on_published: Callable[[GameRow], None],
    ) -> None:
        self.bot = bot
        self.db = db
        self.loader = loader
        self.renderer = renderer
        self.private = private
        self.on_published = on_published
        self.locks = GameLocks()

    async def publish(
        self,
        board: Board,
        events: Sequence[Event],
        *,
        interaction: discord.Interaction | None,
        previous: Board | None,
        unless_posted: bool = False,
    ) -> list[str]:
        """Post the new board with a summary and a ping, disable the old one and send private updates.

        With `unless_posted`, post nothing when a board of this version or newer is already in the channel.
        Return the names of the players whose private update by DM did not arrive (Discord failed it).
        """
        adapter = adapter_for(board.row.kind)
        async with self.locks.hold(board.row.id):
            if unless_posted:
                fresh = await self.db.game(board.row.id)
                if fresh is None or fresh.posted_version >= board.version:
                    return []
            picture = await self.renderer.board(adapter, board)
            content = board_content(board, events)
            if board.game.is_over(board.state):
                items: list[discord.ui.Item[Any]] = [
                    button(board.row.id, board.version, "rematch", "Rematch", style=discord.ButtonStyle.success)
                ]
            else:
                items = adapter.board_items(board)
            message = await self.send(board.row, interaction, content, picture, items)
            if previous is not None:
                await self.edit_message(
                    board.row.channel_id,
                    board.row.board_message_id,
                    view=view_of(adapter.board_items(previous)) or discord.utils.MISSING,
                )
            if message is not None:
                await self.db.set_board_message(board.row.id, message.id, version=board.version)
                board.row.board_message_id = message.id
                board.row.posted_version = max(board.row.posted_version, board.version)
        undelivered = []
        for seat in sorted(adapter.seats_to_update_privately(events, board.state)):
            try:
                await self.private.send(board, seat)
            except discord.HTTPException as exc:
                log.warning("the private update of game %s for seat %s did not arrive: %s", board.row.id, seat, exc)
                undelivered.append(board.row.seats[seat].name)
        self.on_published(board.row)
        return undelivered

    async def send(
        self,
        row: GameRow,
        interaction: discord.Interaction | None,
        content: str,
        picture: Picture,
        items: list[discord.ui.Item[Any]],
    ) -> discord.Message | None:
        """Send a board as the interaction's follow-up, or to the channel when no one is interacting."""
        view = view_of(items)
        kwargs: dict[str, Any] = {"content": content, "file": picture.file(), "allowed_mentions": MENTION_USERS}
        if view is not None:
            kwargs["view"] = view
        if interaction is not None:
            return await interaction.followup.send(wait=True, **kwargs)
        return await self.bot.get_partial_messageable(row.channel_id).send(**kwargs)

    async def edit_message(self, channel_id: int, message_id: int | None, **changes: Any) -> None:
        """Edit an earlier message of ours, ignoring one that was deleted."""
        if message_id is None:
            return
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**changes)
        except discord.HTTPException as exc:
            log.info("could not edit message %s in %s: %s", message_id, channel_id, exc)

    async def disable_board(self, row: GameRow) -> None:
        """Grey out the components of a game's current board."""
        try:
            board = self.loader.board(row, disabled=True)
        except UserError:
            await self.edit_message(row.channel_id, row.board_message_id, view=None)
            return
        items = adapter_for(row.kind).board_items(board)
        await self.edit_message(row.channel_id, row.board_message_id, view=view_of(items))

    async def repost(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Post an active game's current board again and retire the previous one."""
        board = self.loader.board(row)
        await interaction.response.defer(thinking=True)
        await self.publish(board, [], interaction=interaction, previous=self.loader.board(row, disabled=True))
