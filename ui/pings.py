"""Ping the players due under a board edited in place, one short message at a time: each replaces the last.

The newest ping's message id is saved with its game (storage: `standing_ping`, `set_ping`), so a restarted bot
deletes the one an earlier process posted. The process remembers what it recorded, so a ping reads the database
only for a game it has not pinged yet (one round trip less on the pooled connections a burst's moves wait for). A
process killed between a ping reaching Discord and its id being saved leaves one nobody recorded: the first ping or
new board under each board older than the process looks for such pings among the messages after it and deletes them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from engine.words import join_names
from i18n import ngettext
from storage.database import Database, GameRow
from ui.followups import Followups
from ui.private import MENTION_USERS

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)
AFTER_BOARD = 50
REMEMBERED = 10_000
"""How many games' standing pings a process remembers (the games it pinged last): a forgotten one is read again."""
"""How many messages after a game's board are searched for pings nobody recorded (a Leader phase makes six)."""


def your_turn(people: Sequence[str]) -> str:
    """Tell the players pinged (their mentions) that it is their turn."""
    return ngettext("{people}, it's your turn.", "{people}, it's your turn.", len(people), people=join_names(people))


def is_turn_ping(message: discord.Message) -> bool:
    """Return True for a turn ping: no picture or menus, its last line telling the people it mentions to play."""
    if message.attachments or message.components or not message.raw_mentions:
        return False
    last = message.content.rsplit("\n", 1)[-1]
    return last == your_turn([f"<@{user}>" for user in message.raw_mentions])


class TurnPings:
    """Post, record and delete the turn pings of games whose boards are edited in place."""

    def __init__(self, bot: commands.Bot, db: Database, followups: Followups | None = None) -> None:
        self.bot = bot
        self.db = db
        self.followups = followups
        """The interactions that sent pings, which delete them without a request Discord counts."""
        self.started = discord.utils.time_snowflake(discord.utils.utcnow())
        """When this process began, as a message id: only a board posted before then can have a ping under it that
        an earlier process left."""
        self.swept: set[int] = set()
        """Games this process has looked for unrecorded pings of (once each: only a kill leaves one)."""
        self.standing: dict[int, int | None] = {}
        """The standing ping this process recorded last per game, oldest first: trusted without a read (if another
        process recorded one since, the conditional update finds it changed and the database is read then)."""

    async def ping(
        self, row: GameRow, seats: Sequence[int], status: str, interaction: discord.Interaction | None = None
    ) -> None:
        """Ping the human players among `seats` once, in one short message under the board edited in place.

        The previous such ping of the game is deleted: it has done its work (notified), and the board says the rest.
        With an `interaction` whose next follow-ups are public in the game's channel, the ping is one of them (not
        counted against Discord's global limit); else it is sent to the channel.
        """
        people = [row.seats[s].mention for s in seats if 0 <= s < len(row.seats) and not row.seats[s].is_bot]
        if people:
            text = f"{status}\n{your_turn(people)}"
            if interaction is not None:
                sent: discord.Message = await interaction.followup.send(text, allowed_mentions=MENTION_USERS, wait=True)
                if self.followups is not None:
                    self.followups.sent(sent.id, interaction)
            else:
                channel = self.bot.get_partial_messageable(row.channel_id)
                sent = await channel.send(text, allowed_mentions=MENTION_USERS)
            known = row.id in self.standing
            previous = await self._standing(row.id)
            if not await self._record(row, sent.id, previous) and known:
                previous = await self.db.standing_ping(row.id)  # another process pinged since: read what it left
                await self._record(row, sent.id, previous)
            await self._delete(row, previous)
            await self._sweep(row, row.board_message_id, keep=sent.id)

    async def drop(self, row: GameRow, board_id: int | None) -> None:
        """Delete the game's last ping under the board `board_id`, now that a new board pings by itself.

        It is forgotten only once deleted: a process killed in between leaves it for the next ping to delete.
        """
        if (previous := await self._standing(row.id)) is not None:
            await self._delete(row, previous)
            await self._record(row, None, previous)
        await self._sweep(row, board_id, keep=None)

    async def _standing(self, game_id: int) -> int | None:
        """Return the game's standing ping: the one this process recorded last, else the database's."""
        if game_id in self.standing:
            return self.standing[game_id]
        self.standing[game_id] = found = await self.db.standing_ping(game_id)  # then trusted like one recorded here
        if len(self.standing) > REMEMBERED:
            del self.standing[next(iter(self.standing))]
        return found

    async def _record(self, row: GameRow, message_id: int | None, previous: int | None) -> bool:
        """Save the game's standing ping in place of `previous` (the game's lock keeps others from changing it).

        Return False if the game's standing ping was not `previous`: what this process remembered is dropped.
        """
        self.standing.pop(row.id, None)
        if not await self.db.set_ping(row.id, message_id, previous):
            log.info("game %s: its standing ping changed before ping %s was recorded", row.id, message_id)
            return False
        self.standing[row.id] = message_id
        if len(self.standing) > REMEMBERED:
            del self.standing[next(iter(self.standing))]
        return True

    async def _sweep(self, row: GameRow, board_id: int | None, keep: int | None) -> None:
        """Once per game and process, delete the turn pings of ours after the board that are not `keep`."""
        if row.id in self.swept or board_id is None or board_id >= self.started:
            return
        self.swept.add(row.id)
        me = self.bot.user.id if self.bot.user else None
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            async for message in channel.history(limit=AFTER_BOARD, after=discord.Object(board_id)):
                if message.author.id == me and message.id != keep and is_turn_ping(message):
                    log.info("game %s: deleting ping %s that no process recorded", row.id, message.id)
                    await self._delete(row, message.id)
        except discord.HTTPException as exc:
            log.info("could not read the messages after the board of game %s: %s", row.id, exc)

    async def _delete(self, row: GameRow, message_id: int | None) -> None:
        """Delete a stale ping of the game from its channel (best effort: it may be gone already)."""
        if message_id is None or (self.followups is not None and await self.followups.delete(message_id)):
            return
        try:
            await self.bot.get_partial_messageable(row.channel_id).get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("stale ping %s of game %s not deleted: %s", message_id, row.id, exc)
