"""Post boards to a game's channel: the new board with its summary and ping, then retire the old one."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from engine.base import Event, Game
from engine.takeback import TAKEBACK, describe_takeback, effective_log
from i18n import _, ngettext
from storage.database import Database, GameRow
from storage.patience import patient
from ui.adapter import Board, GameAdapter, Picture, adapter_for
from ui.components import button, custom_id, view_of
from ui.errors import UserError
from ui.followups import Followups
from ui.language import in_game_language
from ui.loading import GameLoader, row_damage
from ui.locks import GameLocks
from ui.mentions import command
from ui.pings import TurnPings, your_turn
from ui.private import PrivateMessages
from ui.rendering import Renderer
from ui.sent import SentComponents
from ui.table_button import with_table_button
from ui.text import lines_within, more_lines
from ui.tidying import Tidier

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)
RECENT = 20
"""How many of a channel's newest messages are searched for a board that was posted but not recorded."""

MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)
SHOWN_KEPT = 10_000
"""How many games' newest boards are remembered in memory (beside their saved record)."""


ANNOUNCEMENTS = frozenset({"turn_start", "leader_turn"})
"""Events that only say whose turn comes next: the board says it; a history or a takeback leaves them out."""


def describe(game: Game, event: Event, names: Sequence[str]) -> str:
    """Return the summary line of a public event, takebacks included."""
    return describe_takeback(event, names) if event.kind == TAKEBACK else game.describe(event, names)


def more_moves(n: int) -> str:
    """Say that the lines of `n` more moves were left out of a board's summary."""
    return ngettext("…and {n} more move", "…and {n} more moves", n)


def rematch_button(row: GameRow, version: int) -> discord.ui.Item[Any]:
    """Return the Rematch button of a finished game's board."""
    return button(row.id, version, "rematch", _("Rematch"), style=discord.ButtonStyle.success)


async def no_notes(row: GameRow, over: bool) -> list[str]:
    """Add nothing to a board (the default until the flow sets a hook)."""
    return []


def board_content(board: Board, events: Sequence[Event]) -> str:
    """Write a board message's text: what just happened, then whose turn it is (with a ping) or the result."""
    game, names = board.game, board.names
    happened = [text for e in events if e.private_to is None and (text := describe(game, e, names))]
    lines: list[str] = []
    if game.is_over(board.state):
        outcome = game.outcome(board.state)
        lines.append(_("**Final standings**"))
        lines += adapter_for(board.row.kind).standings_lines(outcome, names)
        if outcome.tiebreak and not any(outcome.tiebreak in line for line in happened):
            lines.append(outcome.tiebreak)  # unless the game-over line just said it
        lines += board.notes
        mentions = [seat.mention for seat in board.row.seats]
        lines.append(adapter_for(board.row.kind).congratulations(outcome, mentions))
    else:
        lines.append(game.status(board.state, names))
        if happened and happened[-1] == lines[-1]:
            happened.pop()  # never say the same thing twice in a row
        # A seat still in the middle of its own turn (a Gourami choice after its take) is not pinged again.
        waiting = [board.row.seats[s] for s in game.to_act(board.state) if not game.mid_turn(board.state, s)]
        people = [seat.mention for seat in waiting if not seat.is_bot]
        if people:
            lines.append(your_turn(people))
        lines += board.notes
    return lines_within(happened + lines, keep_last=len(lines), more=more_moves)


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
        self.followups = Followups(clock=lambda: db.clock().timestamp())
        """The interactions whose webhook may edit a board or ping they sent (Discord does not count those edits)."""
        self.sent = SentComponents(bot, followups=self.followups)
        """The components the newest boards were sent with, to grey them out once replaced."""
        self.tidier = Tidier(busy=lambda: False)
        """Put off greying out old boards while a burst is in hand (the flow sets one that knows)."""
        self.notes: Callable[[GameRow, bool], Awaitable[list[str]]] = no_notes
        """Return the extra lines of a game's board (set by the flow: hints used, rating changes)."""
        self.table = False
        """Offer "Play on the table" under every board of a game in progress (the table is configured)."""
        self.shown: OrderedDict[int, tuple[int, int]] = OrderedDict()
        """Game id -> (version, message id) of the newest board this process posted, should its record fail."""
        self.pings = TurnPings(bot, db, self.followups)
        """The turn pings under boards edited in place (sent and deleted through an interaction where one is given)."""

    @in_game_language
    async def publish(
        self,
        board: Board,
        events: Sequence[Event],
        *,
        interaction: discord.Interaction | None,
        previous: Board | None,
        unless_posted: bool = False,
        ping: bool = True,
    ) -> list[str]:
        """Post the new board with a summary and a ping, disable the old one and send private updates.

        A step that continues a turn (see `GameAdapter.turn_in_place`) edits the current board instead. With an
        `interaction`, whose next follow-ups are public messages in the game's channel, what is posted is sent as
        its follow-ups (Discord does not count those against the bot's global limit); without one, to the channel.
        With `unless_posted`, nothing is posted when a board of this version or newer is already in the channel.
        Without `ping` the turn line names the players without notifying them (a board posted again).
        Return the names of the players whose private update by DM did not arrive (Discord failed it).
        """
        adapter = adapter_for(board.row.kind)
        self._recall(board.row)
        board = replace(board, notes=tuple(await self.notes(board.row, board.game.is_over(board.state))))
        await self.posted_meanwhile(board, events)
        if self.in_place(board, events):
            if not await self._edit_in_place(adapter, board, events, unless_posted, interaction):
                return []
            return await self._after(adapter, board, events)
        async with self.locks.hold(board.row.id):
            if unless_posted and await self._posted(board):
                return []
            picture = await self.renderer.board(adapter, board)
            content = board_content(board, events)
            if board.game.is_over(board.state):
                items: list[discord.ui.Item[Any]] = [rematch_button(board.row, board.version)]
            else:
                items = self.items(adapter, board)
            if adapter.pings_turns:  # the new board pings by itself (the ping goes first, as in `_edit_in_place`)
                await self.pings.drop(board.row, board.row.board_message_id)
            message = await self.send(board.row, interaction, content, picture, items, ping=ping)
            if previous is not None:
                retire = partial(self.retire, previous, board.row.board_message_id)
                if not self.tidier.put_off(retire):
                    await retire()
            if message is not None:
                await self._mark_posted(board, message.id)
        return await self._after(adapter, board, events)

    @in_game_language
    async def retire(self, previous: Board, message_id: int | None) -> None:
        """Grey out the menus of a board a newer one replaced (those it was sent with, when they are known)."""
        if message_id is None:
            return
        sent = self.sent.take(message_id)
        if sent is None:
            items = adapter_for(previous.row.kind).board_items(previous)
            await self.edit_message(previous.row.channel_id, message_id, view=view_of(items) or discord.utils.MISSING)
        else:
            await self.sent.grey_out(previous.row.channel_id, message_id, sent)

    async def _posted(self, board: Board) -> bool:
        """Return True when the channel already shows this board's version or a newer one.

        A board whose post went out but was never recorded (the bot died between the two) is found among the
        channel's newest messages and recorded, so a restart does not post it twice.
        """
        fresh = await self.db.game(board.row.id)
        if fresh is None or fresh.posted_version >= board.version:
            return True
        found = await self._find_posted(fresh, board.version)
        if found is not None:
            log.info("game %s: the board of version %s was posted but not recorded", fresh.id, board.version)
            await self._mark_posted(board, found)
            return True
        return False

    def unsure(self, board: Board, events: Sequence[Event]) -> bool:
        """Return True when events that go on in the current board find no board recorded in the row in hand."""
        return adapter_for(board.row.kind).turn_in_place(events) and not self.in_place(board, events)

    async def posted_meanwhile(self, board: Board, events: Sequence[Event]) -> None:
        """When `unsure`, read which board the game shows once the one being posted (its first) is recorded.

        A step that goes on in the current board may come while that board is still being posted (a Leader placed
        as the start's board waits for Discord): it must edit that board once it is there, not post another.
        """
        if not self.unsure(board, events):
            return
        async with self.locks.hold(board.row.id):  # held while this process posts the game's board
            self._recall(board.row)
            if not self.unsure(board, events):
                return
            fresh = await self.db.game(board.row.id)  # posted by an earlier process
        if fresh is not None and fresh.posted_version > board.row.posted_version:
            board.row.board_message_id = fresh.board_message_id
            board.row.posted_version = fresh.posted_version

    async def _find_posted(self, row: GameRow, version: int) -> int | None:
        """Return the id of a message of ours after the recorded board that shows `version`, if any."""
        after = discord.Object(row.board_message_id) if row.board_message_id else None
        wanted = custom_id(row.id, version, "")
        me = self.bot.user.id if self.bot.user else None
        try:
            async for message in self.bot.get_partial_messageable(row.channel_id).history(limit=RECENT, after=after):
                if message.author.id != me:
                    continue
                rows = [getattr(r, "children", [r]) for r in message.components]
                if any((getattr(c, "custom_id", None) or "").startswith(wanted) for cs in rows for c in cs):
                    return message.id
        except discord.HTTPException as exc:
            log.info("could not read the newest messages of channel %s: %s", row.channel_id, exc)
        return None

    async def _mark_posted(self, board: Board, message_id: int) -> None:
        """Remember the message that now shows the board and the version it shows.

        It is remembered here first: should saving the record fail (a busy database), the game's next move still
        edits or retires this board, not the one before it (the outbox saves the record later).
        """
        self.shown[board.row.id] = max(self.shown.get(board.row.id, (0, 0)), (board.version, message_id))
        self.shown.move_to_end(board.row.id)
        while len(self.shown) > SHOWN_KEPT:
            self.shown.popitem(last=False)
        board.row.board_message_id = message_id
        board.row.posted_version = max(board.row.posted_version, board.version)
        with patient():  # the move was answered: its board's record may wait for a connection
            await self.db.set_board_message(board.row.id, message_id, version=board.version)

    def _recall(self, row: GameRow) -> None:
        """Point a game's row at the newest board this process posted, when its saved record is older."""
        version, message_id = self.shown.get(row.id, (0, 0))
        if version > row.posted_version:
            row.board_message_id, row.posted_version = message_id, version

    async def _after(self, adapter: GameAdapter, board: Board, events: Sequence[Event]) -> list[str]:
        """Send the private updates a board causes; return whose did not arrive."""
        undelivered = []
        for seat in sorted(adapter.seats_to_update_privately(events, board.state)):
            try:
                await self.private.send(board, seat)
            except discord.HTTPException as exc:
                log.warning("the private update of game %s for seat %s did not arrive: %s", board.row.id, seat, exc)
                undelivered.append(board.row.seats[seat].name)
        # A private menu from an earlier version is out of date; once the game is over, every one is.
        if board.game.is_over(board.state):
            close = partial(self.private.close_menus, board.row.id)
        else:
            live = adapter.menus_still_live(board.state)
            keep = {board.row.seats[s].user_id for s in live if not board.row.seats[s].is_bot}
            close = partial(self.private.close_stale_menus, board.row.id, board.version, keep)
        if not self.tidier.put_off(close):  # a stale menu is refused when pressed: greying it out can wait
            await close()
        self.on_published(board.row)
        return undelivered

    def items(self, adapter: GameAdapter, board: Board) -> list[discord.ui.Item[Any]]:
        """Return the components under a game's current board: its menus, and "Play on the table" if offered."""
        items = adapter.board_items(board)
        if self.table and not board.disabled and not board.game.is_over(board.state):
            return with_table_button(items, board.row.id, board.version)
        return items

    def in_place(self, board: Board, events: Sequence[Event]) -> bool:
        """Return True when publishing these events edits the current board rather than posting a new one.

        Only a board can be edited in place: while no board of the game was posted yet (the first one failed, or
        the bot died before recording it) the recorded message is still the lobby, which must not become one.
        """
        row = board.row
        posted = row.board_message_id is not None and row.posted_version > 0
        return posted and adapter_for(row.kind).turn_in_place(events)

    async def _edit_in_place(
        self,
        adapter: GameAdapter,
        board: Board,
        events: Sequence[Event],
        unless_posted: bool = False,
        interaction: discord.Interaction | None = None,
    ) -> bool:
        """Edit the turn's board with the new picture and the turn's lines; post the next board when it ends.

        The turn's lines are rebuilt from the saved action log, so a restart loses none of them. Return False
        when nothing was done because the channel already shows this version (`unless_posted`).
        """
        game, state, names, row = board.game, board.state, board.names, board.row
        async with self.locks.hold(row.id):
            if unless_posted and await self._posted(board):
                return False
            saved = [entry for entry in await self.db.actions(row.id) if entry["version"] <= board.version]
            log = effective_log(saved)  # moves taken back are no part of the turn
            logged = [Event(**e) for entry in log for e in entry["events"]]
            fresh = len(logged) - len(events)
            start = adapter.turn_start(logged, fresh)
            turn = logged[start:]
            cut = next((i for i in range(fresh - start, len(turn)) if turn[i].kind in adapter.turn_closers), len(turn))
            lines = [text for e in turn[:cut] if e.private_to is None and (text := describe(game, e, names))]
            picture = await self.renderer.board(adapter, board)
            going_on = not game.is_over(state) and adapter.still_in_place(game, state)
            if going_on:
                content = lines_within([*lines, game.status(state, names)], keep_last=1, more=more_lines)
                view = view_of(self.items(adapter, board))
                try:
                    await self.edit_message(
                        row.channel_id,
                        row.board_message_id,
                        strict=True,
                        content=content,
                        attachments=[picture.file()],
                        view=view,
                    )
                    shown_in = row.board_message_id
                except discord.NotFound:  # the turn's board was deleted: post it anew
                    anew = await self.send(row, interaction, content, picture, self.items(adapter, board))
                    shown_in = None if anew is None else anew.id
                if shown_in is not None:
                    await self._mark_posted(board, shown_in)
                await self.pings.ping(
                    row, adapter.pings_in_place(events, state), game.status(state, names), interaction
                )
                return True
            # The picture goes once: either on the finished turn's message, the next board being its text, ping
            # and menus only, or (picture_after_turn_in_place) on the next board, the finished turn's message
            # keeping the picture it had.
            again = picture if adapter.picture_after_turn_in_place else None
            await self.edit_message(
                row.channel_id,
                row.board_message_id,
                content=lines_within(lines, more=more_lines),
                **({} if again else {"attachments": [picture.file()]}),
                view=None,
            )
            if game.is_over(state):
                items: list[discord.ui.Item[Any]] = [rematch_button(row, board.version)]
            else:
                items = self.items(adapter, board)
            # The new board pings whoever is next. The last ping goes first: a bot killed before the board is posted
            # leaves the board owed (posted after the restart), not a ping nothing would delete.
            await self.pings.drop(row, row.board_message_id)
            message = await self.send(row, interaction, board_content(board, turn[cut:]), again, items)
            if message is not None:
                await self._mark_posted(board, message.id)
            return True

    async def send(
        self,
        row: GameRow,
        interaction: discord.Interaction | None,
        content: str,
        picture: Picture | None,
        items: list[discord.ui.Item[Any]],
        *,
        ping: bool = True,
    ) -> discord.Message | None:
        """Send a board as the interaction's follow-up, or to the channel when no one is interacting.

        Without a picture the board is its text and menus only (the picture is in the message just above).
        """
        view = view_of(items)
        mentions = MENTION_USERS if ping else discord.AllowedMentions.none()
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions}
        if picture is not None:
            kwargs["file"] = picture.file()
        if view is not None:
            kwargs["view"] = view
        if interaction is not None:
            message: discord.Message = await interaction.followup.send(wait=True, **kwargs)
            self.followups.sent(message.id, interaction)
        else:
            message = await self.bot.get_partial_messageable(row.channel_id).send(**kwargs)
        self.sent.remember(message.id, view)
        return message

    async def edit_message(
        self, channel_id: int, message_id: int | None, *, strict: bool = False, **changes: Any
    ) -> None:
        """Edit an earlier message of ours, ignoring one that was deleted (unless `strict`: then raise).

        A message an interaction sent is edited through that interaction's webhook while it lives (not counted).
        """
        if message_id is None:
            return
        if changes.get("view", discord.utils.MISSING) is not discord.utils.MISSING:
            self.sent.remember(message_id, changes["view"])
        if await self.followups.edit(message_id, **changes):
            return
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**changes)
        except discord.HTTPException as exc:
            if strict:
                raise
            log.info("could not edit message %s in %s: %s", message_id, channel_id, exc)

    @in_game_language
    async def disable_board(self, row: GameRow) -> None:
        """Grey out a game's current board (drop a damaged board's components), its turn ping and private menus."""
        await self.private.close_menus(row.id)
        try:
            if (why := row_damage(row)) is not None:
                raise UserError(why)
            board = self.loader.board(row, disabled=True)
        except UserError:  # a damaged game (say, of a kind this bot does not know) has only its components dropped
            await self.edit_message(row.channel_id, row.board_message_id, view=None)
            return
        adapter = adapter_for(row.kind)
        if adapter.pings_turns:
            await self.pings.drop(row, row.board_message_id)
        items = adapter.board_items(board)
        await self.edit_message(row.channel_id, row.board_message_id, view=view_of(items))

    async def repost(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Post an active game's current board again and retire the previous one; nobody is pinged again."""
        board = self.loader.board(row)
        await interaction.response.defer(thinking=True)
        previous = self.loader.board(row, disabled=True)
        await self.publish(board, [], interaction=interaction, previous=previous, ping=False)

    async def show_privately(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Show an active game's current board (or a finished one's standings) to the caller alone.

        No menus, no ping, nothing in the channel.
        """
        board = self.loader.board(row, disabled=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture = await self.renderer.board(adapter_for(row.kind), board)
        content = board_content(board, [])
        if board.game.is_over(board.state):
            ended = _(
                "Game #{id} ({title}) has just ended. Start a new one with {command}, or press Rematch.",
                id=row.id,
                command=command("game new"),
                title=board.game.title,
            )
            content = lines_within([ended, *content.split("\n")])
        await interaction.followup.send(
            content=content,
            file=picture.file(),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
