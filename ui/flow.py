"""Wire the turn flow's parts together and route board components to them."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

from i18n import N_, _
from storage.answer_journal import AnswerJournal
from storage.database import ACTIVE, LOBBY, Database, GameRow
from storage.posts import Posts
from ui.adapter import adapter_for
from ui.answers import AnswerKeeper
from ui.bots import BotPlayers
from ui.bursts import Bursts
from ui.components import LOBBY_VERSION, ComponentHit
from ui.errors import STALE_BOARD, UserError
from ui.fitting import install as fit_every_message
from ui.hints import HINT_TOKEN, give_hint
from ui.language import Readers
from ui.lifecycle import Lifecycle
from ui.limits import Limits, LimitSettings, too_many_lobbies
from ui.loading import GameLoader, check_row
from ui.lobby import Lobby
from ui.locks import GameLocks
from ui.mentions import command
from ui.moves import Moves
from ui.outbox import Outbox
from ui.private import PrivateMessages
from ui.publishing import Publisher
from ui.ratings import board_notes
from ui.rendering import Renderer
from ui.table_button import TABLE_TOKEN, launch
from ui.takeback_offers import Offers
from ui.takebacks import Takebacks
from ui.tally import Tally
from ui.tidying import Tidier

if TYPE_CHECKING:
    from discord.ext import commands


def check_place(interaction: discord.Interaction, row: GameRow) -> None:
    """Refuse a press from another server or channel than the game's (in DMs: from anyone not seated)."""
    if interaction.guild_id is None:
        if row.seat_of(interaction.user.id) is None:
            raise UserError(_("This game no longer exists."))
        return
    if row.guild_id != interaction.guild_id or row.channel_id != interaction.channel_id:
        raise UserError(_("This game is played in another channel: use the board there."))


NEWEST_POSTED = N_("The newest board had not been posted yet: it is in the channel now, so use that one.")


class GameFlow:
    """Hold one of each part of the turn flow and the entry points the cogs, bots and scheduler use."""

    def __init__(
        self,
        bot: commands.Bot,
        db: Database,
        *,
        workers: str = "process",
        outbox_interval: float = 30.0,
        limits: LimitSettings | None = None,
        answers_dir: Path | None = None,
        **bot_options: Any,
    ) -> None:
        fit_every_message()  # within Discord's limits, whatever a translation or a name adds
        self.bot = bot
        self.db = db
        self.limits = Limits(limits)
        journal = AnswerJournal(answers_dir) if answers_dir is not None else None
        self.answers = AnswerKeeper(bot, db, journal=journal)
        self.bursts = Bursts(self.answers)
        self.readers = Readers(db)
        self.posts = Posts(db.backend)
        self.locks = GameLocks()
        self.loader = GameLoader(db)
        self.renderer = Renderer(workers)
        self.private = PrivateMessages(bot, db, self.loader, self.renderer)
        self.answers.expirers.append(self.private.replies.prune)  # no saved token outlives its 15 minutes
        self.dms = self.private.dms
        self.publisher = Publisher(bot, db, self.loader, self.renderer, self.private, self._published)
        self.publisher.tidier = Tidier(busy=self.bursts.busy)
        self.lifecycle = Lifecycle(bot, db, self.loader, self.publisher)
        self.outbox = Outbox(
            bot, db, self.loader, self.publisher, interval=outbox_interval, on_refused=self.lifecycle.post_failed
        )
        self.loader.on_loaded = self._loaded
        self.tally = Tally(db.shards.count if db.shards else 1)
        self.outbox.tally = self.tally
        self.moves = Moves(
            db, self.loader, self.publisher, self.outbox, self.locks, self.schedule_bots, self.tally, self.answers
        )
        self.lobby = Lobby(bot, db, self.publisher, self.locks, self.answers)
        self.bots = BotPlayers(
            db, self.loader, self.moves, workers=workers, on_post_failed=self.lifecycle.post_failed, **bot_options
        )
        self.takebacks = Takebacks(db, self.loader, self.publisher, self.outbox, self.locks)
        self.offers = Offers(db, self.loader, self.takebacks)
        self.publisher.notes = partial(board_notes, db)
        self.live = self.loader.live
        self.game_here = self.loader.game_here
        self.active_game = self.loader.active_game
        self.caller_seat = self.loader.caller_seat
        self.commit = self.moves.commit
        self.resign = self.moves.resign
        self.publish = self.publisher.publish
        self.show_hand = self.private.show_hand
        self.new_lobby = self.lobby.new_lobby
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_bot = self.lobby.add_bot
        self.start = self.lobby.start
        self.cancel = self.lobby.cancel

    async def act(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        action: dict[str, Any],
        *,
        expected_version: int | None = None,
        private_note: str | None = None,
    ) -> None:
        """Apply, save and announce one player's action, then offer them to take it back when that is allowed."""
        self.bursts.learn(row.channel_id, row.id)
        await self.bursts.acknowledgements_first()
        await self.moves.act(interaction, row, action, expected_version=expected_version, private_note=private_note)
        await self.offers.offer(interaction, row, action)

    def _loaded(self, row: GameRow) -> None:
        """Note the game a command found in its channel: post its board if behind; a burst may promise under it."""
        self.outbox.notice(row)
        self.bursts.learn(row.channel_id, row.id)

    def schedule_bots(self, game_id: int) -> None:
        """Let computer players take their turns in this game, if any are due."""
        self.bots.schedule(game_id)

    def _published(self, row: GameRow) -> None:
        """Complete the answers the new board owes, end its pending takebacks; let computer players move."""
        self.answers.published(row)
        self.takebacks.on_board(row)
        self.offers.on_board(row)
        if any(seat.is_bot for seat in row.seats):
            self.schedule_bots(row.id)

    async def lobby_allowed(self, interaction: discord.Interaction) -> None:
        """Refuse a new lobby to a user who already hosts as many open lobbies in this server as one may."""
        most = self.limits.settings.lobbies_per_user
        if (
            interaction.guild_id is not None
            and await self.posts.lobbies_hosted(interaction.guild_id, interaction.user.id) >= most
        ):
            raise UserError(too_many_lobbies(most))

    async def resume(self) -> None:
        """After a start-up, let every game of this process's shards whose turn belongs to a computer player go on."""
        await self.bots.resume()
        await self.takebacks.resume()

    async def repost(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Post the current board (or the lobby) again and retire the previous one."""
        if row.status == LOBBY:
            await self.lobby.repost(interaction, row)
        else:
            await self.publisher.repost(interaction, row)

    async def show_privately(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Show the current board (or the lobby) to the caller alone."""
        if row.status == LOBBY:
            await self.lobby.show_privately(interaction, row)
        else:
            await self.publisher.show_privately(interaction, row)

    async def warm_up(self) -> None:
        """Start every render and thinking worker now, so the first boards and moves after a start do not wait."""
        await asyncio.gather(self.renderer.warm_up(), self.bots.thinkers.warm_up())

    def close(self) -> None:
        """Stop the render pool."""
        self.renderer.close()

    async def on_component(self, interaction: discord.Interaction, hit: ComponentHit) -> None:
        """Route a button or select press to the lobby or to the game's adapter."""
        if interaction.message is not None:  # its answer may change what the pressed DM shows
            self.private.sent.take(interaction.message.id)
        row = await self.db.game(hit.game_id)
        if row is None:
            raise UserError(_("This game no longer exists."))
        check_place(interaction, row)
        check_row(row)
        if hit.version == LOBBY_VERSION and hit.token in {"join", "leave", "start", "addbot"}:
            if row.status != LOBBY:
                raise UserError(_("This lobby is closed: the game has started or ended."))
            handler = {"join": self.join, "leave": self.leave, "start": self.start, "addbot": self.add_bot}[hit.token]
            await handler(interaction, row)
            return
        if hit.token == "rematch":
            await self.lobby_allowed(interaction)
            await self.lobby.rematch(interaction, row)
            return
        if row.status != ACTIVE:
            raise UserError(_("This game is over."))
        if hit.token == TABLE_TOKEN:
            await launch(interaction)
            return
        if hit.token == HINT_TOKEN:  # a private confirmation, bound to the turn it was asked for
            if hit.version != row.version:
                raise UserError(
                    _("The game has moved on since you asked: ask again with {command}.", command=command("game hint"))
                )
            await give_hint(self, interaction, row, confirmed=True)
            return
        adapter = adapter_for(row.kind)
        if hit.version != row.version and not adapter.accepts_stale(hit):
            if hit.version < row.version and row.board_behind:
                await self.outbox.deliver(row.id)
                fresh = await self.db.game(row.id)
                if fresh is not None and not fresh.board_behind:
                    raise UserError(_(NEWEST_POSTED))
            raise UserError(_(STALE_BOARD))
        self.outbox.notice(row)
        await adapter.on_component(self, interaction, self.loader.board(row), hit)
