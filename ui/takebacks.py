"""Take a move back when every other person at the table agrees within 10 minutes.

The player who just moved asks (`/game takeback`, or the button offered after their move); the other people
get Accept / Decline buttons; computer players agree at once. One decline, 10 minutes without every answer, or
any new move ends the request. The game goes back by replaying its log without the move (and the computer
players' moves after it); the log itself only grows: the takeback is appended, naming who agreed.
Requests live in the database and their buttons are persistent, so a restart loses none.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime, timedelta

import discord

from engine.registry import get
from engine.replay import replay
from engine.takeback import TAKEBACK, alone_against_computers, effective_log, takeback_event
from engine.words import join_names
from i18n import N_, _, using
from storage import takebacks as store
from storage.database import ACTIVE, Database, GameRow, Seat, StaleVersion
from storage.errors import StorageError
from storage.server_rules import ServerRules, is_rated, server_rules
from ui.adapter import Board
from ui.errors import UserError
from ui.language import in_game_language, reader_language
from ui.loading import GameLoader
from ui.locks import GameLocks
from ui.mentions import command
from ui.outbox import Outbox
from ui.publishing import Publisher
from ui.takeback_buttons import answer_view
from ui.takeback_plans import Plan, plan, prompt, remember_replies, still_playing, used_up

log = logging.getLogger(__name__)

WINDOW = timedelta(minutes=10)
MOVED_ON = N_("Someone has moved since, so that move can no longer be taken back.")
GONE = N_("This takeback request no longer exists.")
SETTLED = 10_000
"""How many games a process remembers as having no request to end (more are forgotten and read again)."""


class Takebacks:
    """Ask for, answer and apply takebacks."""

    def __init__(
        self, db: Database, loader: GameLoader, publisher: Publisher, outbox: Outbox, locks: GameLocks
    ) -> None:
        self.db = db
        self.loader = loader
        self.publisher = publisher
        self.outbox = outbox
        self.locks = locks
        self._tasks: set[asyncio.Task[None]] = set()
        self.settled: set[int] = set()
        """Games with no pending request left for a new board to end: it reads the database for none of them. Only
        this process asks for takebacks in its servers' games while it runs (a lost shard lease stops it)."""
        self.asked = 0
        """Requests this process has asked for: a game read while one was asked is not counted settled."""

    async def allowed(self, row: GameRow) -> ServerRules:
        """Refuse when the server turned takebacks off, or allows them in casual games only and this one is rated."""
        rules = await server_rules(self.db, row.guild_id)
        if not rules.takebacks:
            raise UserError(_("This server has turned takebacks off."))
        if not rules.rated_takebacks and await is_rated(self.db, row.id):
            raise UserError(
                _(
                    "This is a rated game, and this server allows takebacks only in casual games ({command}).",
                    command=command("game new", rated="false"),
                )
            )
        return rules

    async def request(
        self, interaction: discord.Interaction, row: GameRow, *, expected_version: int | None = None
    ) -> None:
        """Ask the other people at the table to let the caller take back their last move."""
        if row.status != ACTIVE:
            raise UserError(_("Moves can be taken back only while the game is being played."))
        seat = row.seat_of(interaction.user.id)
        if seat is None or row.seats[seat].is_bot:
            raise UserError(_("You are not playing in this game."))
        if expected_version is not None and row.version != expected_version:
            raise UserError(_(MOVED_ON))
        rules = await self.allowed(row)
        game, state = self.loader.live(row)
        log_entries = await self.db.actions(row.id)
        what = plan(game, row, log_entries, seat)
        for old in await store.pending_for(self.db, row.id):
            if old.version == row.version and not old.expired(self.db.clock()):
                raise UserError(_("A takeback is already waiting for answers in this game."))
            await self._end(old, store.EXPIRED if old.version == row.version else store.ENDED)
        people = [s for s in row.seats if not s.is_bot and s.seat != seat and still_playing(game, state, s.seat)]
        if not people:
            if alone_against_computers(log_entries, seat) >= rules.computer_takebacks:
                raise UserError(used_up(rules.computer_takebacks))
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self._apply(row.id, row.version, seat, what, [])
            await interaction.followup.send(
                _("Done: your move was taken back. See the board in the channel."), ephemeral=True
            )
            return
        self.asked += 1
        self.settled.discard(row.id)
        request = await store.create(
            self.db,
            game_id=row.id,
            version=row.version,
            seat=seat,
            user_id=interaction.user.id,
            undo=what.versions,
            waiting=[s.user_id for s in people],
            channel_id=row.channel_id,
            expires_at=self.db.clock() + WINDOW,
        )
        await self._ask(interaction, row, seat, request, what, people)

    @in_game_language
    async def _ask(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        seat: int,
        request: store.Takeback,
        what: Plan,
        people: list[Seat],
    ) -> None:
        """Ask the others in the game's channel, with Accept and Decline buttons (privately tell the caller so)."""
        text = prompt(row.seats[seat].name, what.moves, [s.mention for s in people])
        mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
        if interaction.channel_id == row.channel_id and not (
            interaction.message and interaction.message.flags.ephemeral
        ):
            await interaction.response.send_message(text, view=answer_view(request.id), allowed_mentions=mentions)
            message = await interaction.original_response()
        else:
            with using(reader_language(interaction)):
                await interaction.response.send_message(
                    _("Asked: the others answer in the game's channel."), ephemeral=True
                )
            channel = self.publisher.bot.get_partial_messageable(row.channel_id)
            message = await channel.send(text, view=answer_view(request.id), allowed_mentions=mentions)
        await store.set_message(self.db, request.id, message.id)
        self.watch(replace(request, message_id=message.id))

    def watch(self, request: store.Takeback) -> None:
        """Say in the channel that a request expired once its 10 minutes are over, if nobody ended it before."""
        seconds = (datetime.fromisoformat(request.expires_at) - self.db.clock()).total_seconds()
        task = asyncio.get_running_loop().create_task(self._expire_after(request, max(0.0, seconds)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _expire_after(self, request: store.Takeback, seconds: float) -> None:
        """Wait, then mark the request expired if it is still pending and its time is over."""
        await asyncio.sleep(seconds)
        fresh = await store.get(self.db, request.id)
        if fresh is not None and fresh.status == store.PENDING and fresh.expired(self.db.clock()):
            await self._end(fresh, store.EXPIRED)

    async def resume(self) -> None:
        """After a start-up, watch the pending requests of this process's servers again."""
        for request, guild in await store.all_pending(self.db):
            if self.db.shards is None or self.db.shards.owns(guild):
                self.watch(request)

    async def close(self) -> None:
        """Stop watching requests (at shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def answer(self, interaction: discord.Interaction, request_id: int, *, accept: bool) -> None:
        """Record one person's Accept or Decline; apply the takeback once everyone has accepted."""
        request = await store.get(self.db, request_id)
        if request is None:
            raise UserError(_(GONE))
        row = await self.db.game(request.game_id)
        if row is None or (interaction.guild_id is not None and row.guild_id != interaction.guild_id):
            raise UserError(_(GONE))
        if request.status != store.PENDING:
            raise UserError(self._ended(request.status))
        if interaction.user.id not in request.waiting:
            raise UserError(_("Only the other players of this game answer this request."))
        if request.expired(self.db.clock()):
            await self._end(request, store.EXPIRED)
            raise UserError(_("This takeback request expired: nobody can accept it after 10 minutes."))
        if row.status != ACTIVE or row.version != request.version:
            raise await self._lost(request)
        name = getattr(interaction.user, "display_name", None) or interaction.user.name
        if not accept:
            if not await store.close(self.db, request.id, store.DECLINED, interaction.user.id):
                raise UserError(await self._refusal(request.id))
            with using(row.language):
                await interaction.response.edit_message(
                    content=_("{name} declined the takeback: the move stands.", name=name),
                    view=answer_view(request.id, disabled=True),
                )
            return
        updated = await store.accept(self.db, request.id, interaction.user.id)
        if updated is None:
            raise UserError(await self._refusal(request.id))
        if updated.missing:
            names = [s.name for s in row.seats if s.user_id in updated.missing]
            await interaction.response.send_message(
                _("You accepted. Still waiting for {names}.", names=join_names(names)), ephemeral=True
            )
            return
        await interaction.response.defer()
        agreed = [s.seat for s in row.seats if s.user_id in updated.accepted]
        try:
            what = plan(get(row.kind), row, await self.db.actions(row.id), request.seat)
        except UserError:
            raise await self._lost(request) from None
        if what.versions != request.undo:
            raise await self._lost(request)
        await self._apply(row.id, request.version, request.seat, what, agreed, request, interaction.user.id)
        with using(row.language):
            await self.publisher.edit_message(
                request.channel_id,
                request.message_id,
                content=_("Everyone accepted: {name}'s move was taken back.", name=row.seats[request.seat].name),
                view=answer_view(request.id, disabled=True),
            )

    async def _lost(self, request: store.Takeback | None) -> UserError:
        """Return the refusal of a takeback whose game changed under it: how its request ended, or that play went on.

        A request still pending is ended here (the game moved on); one decided meanwhile says how it was decided.
        """
        if request is not None and not await self._end(request, store.ENDED):
            return UserError(await self._refusal(request.id))
        return UserError(_(MOVED_ON))

    async def _refusal(self, request_id: int) -> str:
        """Say how a request that is no longer pending ended."""
        fresh = await store.get(self.db, request_id)
        return self._ended(fresh.status if fresh is not None else "")

    async def _apply(
        self,
        game_id: int,
        version: int,
        seat: int,
        what: Plan,
        agreed: list[int],
        request: store.Takeback | None = None,
        decided_by: int | None = None,
    ) -> None:
        """Rebuild the game without the undone moves, append the takeback to the log and post the board.

        A request is decided (accepted) in the transaction that saves the takeback, and only if still pending:
        a Decline or another Accept that came first wins, and this one changes nothing.
        """
        async with self.outbox.holding(game_id):
            async with self.locks.hold(game_id):
                fresh = await self.db.game(game_id)
                if fresh is None or fresh.status != ACTIVE or fresh.version != version:
                    raise await self._lost(request)
                game = get(fresh.kind)
                log_entries = await self.db.actions(game_id)
                if [e["version"] for e in effective_log(log_entries)][-len(what.versions) :] != what.versions:
                    raise await self._lost(request)
                keep = [e for e in effective_log(log_entries) if e["version"] not in set(what.versions)]
                *_steps, state = replay(game, len(fresh.seats), fresh.options, fresh.seed, keep)
                event = takeback_event(seat, what.versions, what.moves, agreed)
                action = {"type": TAKEBACK, "undo": what.versions, "agreed": [fresh.seats[s].user_id for s in agreed]}
                previous = Board(fresh, game, game.load(fresh.state or {}), fresh.version, disabled=True)
                claims = [] if request is None else [store.deciding(self.db, request.id, store.ACCEPTED, decided_by)]
                replies = remember_replies(game, fresh, state, what.entries)
                try:
                    new_version = await self.db.record_action(
                        game_id,
                        fresh.version,
                        game.dump(state),
                        seat=seat,
                        user_id=fresh.seats[seat].user_id,
                        action=action,
                        events=[event.to_json()],
                        finished=False,
                        also=replies,
                        claims=claims,
                    )
                except StaleVersion:
                    raise await self._lost(request) from None
            fresh.version = new_version
            board = Board(fresh, game, state, new_version)
            try:
                await self.publisher.publish(board, [event], interaction=None, previous=previous)
                if game.hidden_information:
                    await self.publisher.private.send(board, seat)
            except discord.HTTPException as exc:
                log.warning("game %s: a takeback was saved but its board failed: %s", game_id, exc)

    def on_board(self, row: GameRow) -> None:
        """End the pending requests of a game whose board just changed (the next move ends a request)."""
        task = asyncio.get_running_loop().create_task(self._moved_on(row.id, row.version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _moved_on(self, game_id: int, version: int) -> None:
        """End every request of a game asked before `version` (a game settled since has none to read)."""
        if game_id in self.settled:
            return
        asked = self.asked
        try:
            pending = await store.pending_for(self.db, game_id)
            for request in pending:
                if request.version < version:
                    await self._end(request, store.ENDED)
            if asked == self.asked and all(request.version < version for request in pending):
                if len(self.settled) >= SETTLED:
                    self.settled.clear()
                self.settled.add(game_id)
        except StorageError as exc:  # named and logged once by storage; a press or the next board ends them later
            log.info("could not end the takeback requests of game %s yet: %s", game_id, exc)
        except Exception:
            log.exception("could not end the takeback requests of game %s", game_id)

    async def _end(self, request: store.Takeback, status: str) -> bool:
        """Close a pending request and grey out its buttons with what happened; return False if it had ended."""
        if not await store.close(self.db, request.id, status):
            return False
        row = await self.db.game(request.game_id)
        with using(row.language if row is not None else None):
            if status == store.EXPIRED:
                text = _("The takeback request expired: not everyone accepted within 10 minutes. The move stands.")
            elif status == store.ENDED:
                text = _("The takeback request ended: the game has moved on. The move stands.")
            else:
                text = _("The takeback request ended.")
            await self.publisher.edit_message(
                request.channel_id, request.message_id, content=text, view=answer_view(request.id, disabled=True)
            )
        return True

    @staticmethod
    def _ended(status: str) -> str:
        """Refuse an answer to a request that has ended, saying how it ended."""
        if status == store.ACCEPTED:
            return _("This takeback request has already ended (the move was taken back).")
        if status == store.DECLINED:
            return _("This takeback request has already ended (it was declined).")
        if status == store.EXPIRED:
            return _("This takeback request has already ended (it expired).")
        if status == store.ENDED:
            return _("This takeback request has already ended (the game moved on).")
        return _("This takeback request has already ended.")
