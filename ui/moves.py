"""Apply a player's move: check it against the saved game, save it with its log entry, answer, then post."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

import discord

from engine.base import Action, Event, Game, IllegalAction
from engine.words import join_names
from i18n import _
from storage.answers import PendingAnswer, PendingAnswers
from storage.database import ACTIVE, LOBBY, Database, GameRow, Result
from storage.patience import patient
from ui.adapter import Board
from ui.answers import AnswerKeeper
from ui.errors import (
    DMS_LATE,
    EXPECTED,
    NEW_BOARD_LATE,
    STALE_BOARD,
    STALE_COMMAND,
    MoveSaved,
    UserError,
    drop_placeholder,
    not_your_turn,
    reply_ephemeral,
)
from ui.language import in_game_language
from ui.loading import GameLoader
from ui.locks import GameLocks
from ui.mentions import command
from ui.names import bot_seat_name
from ui.outbox import FAILED_BACKOFF_S, Outbox
from ui.publishing import Publisher
from ui.tally import Tally

log = logging.getLogger(__name__)

T = TypeVar("T")
ACK_WITHIN_S = 1.0
"""Acknowledge an interaction by this long after Discord created it when saving has not finished by then
(Discord drops an interaction not acknowledged within 3 s)."""
DEEP = 4
"""With more moves than this being handled at once, acknowledge each new one before saving it (a burst)."""
LATE_S = 0.3
"""Acknowledge a move before saving it when it reached the bot this long after Discord created it (a backlog)."""


@dataclass
class Commit:
    """Hold what one saved action produced: the new board, the one it replaces and the events."""

    board: Board
    previous: Board
    events: list[Event]


def results(row: GameRow, game: Game, state: Any) -> list[Result]:
    """Return each seat's final result once the game is over (nothing before)."""
    if not game.is_over(state):
        return []
    seats = {s.seat: s for s in row.seats}
    return [
        Result(s.seat, seats[s.seat].user_id, seats[s.seat].is_bot, s.score, s.rank, s.winner)
        for s in game.outcome(state).standings
    ]


class Moves:
    """Turn players' actions into saved moves, one at a time per game."""

    def __init__(
        self,
        db: Database,
        loader: GameLoader,
        publisher: Publisher,
        outbox: Outbox,
        locks: GameLocks,
        schedule_bots: Callable[[int], None],
        tally: Tally | None = None,
        answers: AnswerKeeper | None = None,
    ) -> None:
        self.answers = answers
        self.db = db
        self.tally = tally or Tally()
        self.loader = loader
        self.publisher = publisher
        self.outbox = outbox
        self.locks = locks
        self.schedule_bots = schedule_bots
        self.handling = 0
        """Moves by players being handled right now (a deep queue acknowledges at once)."""
        self.saved: list[Callable[[Commit], None]] = []
        """Called with each change saved here (the table pushes the new state at once)."""

    async def commit(
        self,
        game_id: int,
        action: Action,
        *,
        user_id: int | None = None,
        seat: int | None = None,
        expected_version: int | None = None,
        sent_at: datetime | None = None,
        owes: PendingAnswer | None = None,
        stale: str = STALE_BOARD,
    ) -> Commit:
        """Apply an action to the saved game and save it with its log entry; nothing is posted yet.

        The seat is the caller's (`user_id`) or given (`seat`, for computer players and timeouts). The
        reserved action {"type": "resign"} takes the seat out of the game. A move chosen on a board is bound to
        that board's `expected_version`; a slash command to the game as it was when it was `sent_at`. With
        `owes`, the answer the interaction will wait for is saved in the same transaction (see ui/answers.py).
        A move bound to an older version is refused with `stale` (a message id). Its queries wait longer for a
        pooled connection than a read does (storage/patience.py): it is acknowledged whatever the database does.
        """
        with patient():
            return await self._commit(game_id, action, user_id, seat, expected_version, sent_at, owes, stale)

    async def _commit(
        self,
        game_id: int,
        action: Action,
        user_id: int | None,
        seat: int | None,
        expected_version: int | None,
        sent_at: datetime | None,
        owes: PendingAnswer | None,
        stale: str,
    ) -> Commit:
        """Apply and save an action (see `commit`)."""
        async with self.locks.hold(game_id):
            fresh = await self.db.game(game_id)
            if fresh is None or fresh.status != ACTIVE:
                raise UserError(_("This game is over."))
            if expected_version is not None and fresh.version != expected_version:
                raise UserError(_(stale))
            if sent_at is not None and changed_after(fresh, sent_at):
                raise UserError(_(STALE_COMMAND))
            if seat is None:
                seat = fresh.seat_of(user_id or 0)
                if seat is None:
                    raise UserError(_("You are not playing in this game."))
                if fresh.seats[seat].is_bot and action.get("type") != "resign":
                    raise UserError(_("A computer player has taken over your seat."))
            game, state = self.loader.live(fresh)
            previous = Board(fresh, game, game.load(fresh.state or {}), fresh.version, disabled=True)
            if action.get("type") == "resign":
                events = game.resign(state, seat)
            else:
                if seat not in game.to_act(state):
                    raise IllegalAction(not_your_turn(fresh.names, game.to_act(state)))
                events = game.apply(state, seat, action)
            if owes is not None:
                owes = replace(owes, version=fresh.version + 1)
            version = await self.db.record_action(
                fresh.id,
                fresh.version,
                game.dump(state),
                seat=seat,
                user_id=fresh.seats[seat].user_id,
                action=action,
                events=[e.to_json() for e in events],
                finished=game.is_over(state),
                results=results(fresh, game, state),
                also=[PendingAnswers.saving(owes)] if owes is not None else (),
                rules=game.schema_version,
            )
        self.tally.moves[fresh.kind, self.tally.shard_of(fresh.guild_id)] += 1
        if owes is not None and self.answers is not None:
            self.answers.saved(owes)
        fresh.version = version
        done = Commit(Board(fresh, game, state, version), previous, events)
        for saved in self.saved:
            try:
                saved(done)
            except Exception:  # a listener's failure never undoes or hides a saved move
                log.exception("game %s: a listener of saved moves failed", game_id)
        return done

    async def play(
        self,
        user_id: int,
        game_id: int,
        action: Action,
        *,
        expected_version: int,
        stale: str = STALE_BOARD,
        acknowledge: Callable[[Commit], Awaitable[None]] | None = None,
    ) -> Commit:
        """Apply a move a player made away from an interaction (on the table), as `act` does for a command.

        The same `commit` checks it (seat, turn, legality, version) and saves it; `acknowledge` is awaited once
        it is saved, then the new board is posted in the game's channel like any other move's. If posting
        fails, the outbox posts it later: the move stands.
        """
        try:
            async with self.outbox.holding(game_id):
                done = await self.commit(
                    game_id, action, user_id=user_id, expected_version=expected_version, stale=stale
                )
                if acknowledge is not None:
                    await acknowledge(done)
                await self.publisher.publish(done.board, done.events, interaction=None, previous=done.previous)
        except discord.HTTPException as exc:
            log.warning("a table move in game %s was saved; its board waits for the outbox: %s", game_id, exc)
        return done

    async def act(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        action: Action,
        *,
        expected_version: int | None = None,
        private_note: str | None = None,
    ) -> None:
        """Apply one player's action, save it, answer, then post the new board.

        With `private_note` the action is secret: the player alone gets the note, and the public board is
        posted to the channel on its own, so nothing in the reply to the player's command is public. Once the
        move is saved, nothing that fails afterwards says "nothing was changed": the player is told the move
        was saved and what did not arrive, and the outbox posts the board later.
        """
        elsewhere = interaction.channel_id != row.channel_id
        on_board = interaction.message is not None and not interaction.message.flags.ephemeral and not elsewhere
        if private_note is None and elsewhere:
            private_note = _("Done: see the new board in the game's channel.")
        slash = interaction.message is None and expected_version is None and private_note is None
        owes = self._owes(interaction, row, private_note)
        self.handling += 1
        try:
            if self.handling > DEEP or age(interaction) > LATE_S:
                if owes is not None and self.answers is not None:
                    await self.answers.promise(replace(owes, version=row.version + 1))  # kept across a crash
                try:
                    await defer(interaction, private_note, elsewhere=elsewhere)  # the answer follows once saved
                except discord.HTTPException as exc:  # expired (10062) in the queue: the move still counts
                    log.warning("could not acknowledge interaction %s at once: %s", interaction.id, exc)
            await self._act(interaction, row, action, expected_version, private_note, on_board, slash, owes)
        except Exception:
            if owes is not None and self.answers is not None:
                self.answers.given(owes.interaction_id)  # the error reply is its answer
            raise
        finally:
            self.handling -= 1

    async def _act(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        action: Action,
        expected_version: int | None,
        private_note: str | None,
        on_board: bool,
        slash: bool,
        owes: PendingAnswer | None,
    ) -> None:
        """Save an action, answer, then post its board (see `act`)."""
        elsewhere = interaction.channel_id != row.channel_id
        async with self.outbox.holding(row.id):
            saving = self.commit(
                row.id,
                action,
                user_id=interaction.user.id,
                expected_version=expected_version,
                sent_at=interaction.created_at if slash else None,
                owes=owes,
            )
            done = await in_time(interaction, saving, lambda: self._early(interaction, row, owes, private_note))
            try:
                if self.publisher.unsure(done.board, done.events):  # the first board may still be on its way
                    if not interaction.response.is_done():
                        await interaction.response.defer(thinking=interaction.message is None)
                    await self.publisher.posted_meanwhile(done.board, done.events)
                in_place = self.publisher.in_place(done.board, done.events)
                if private_note is None and in_place and not on_board:
                    private_note = _("Done: the board in the channel shows it.")
                dropped, noted = await acknowledge(interaction, private_note, elsewhere=elsewhere)
                if dropped and owes is not None and self.answers is not None:
                    await self.answers.given_now(owes.interaction_id)  # its placeholder is gone: never answer twice
                waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
                self.tally.answered(self.tally.shard_of(row.guild_id), waited)
                if on_board:
                    self.publisher.followups.pressed(interaction)  # the board it was on is edited through it
                public = public_followups(interaction, private_note, elsewhere=elsewhere, noted=noted)
                target = interaction if public else None
                missed = await self.publisher.publish(
                    done.board, done.events, interaction=target, previous=done.previous
                )
                if owes is not None and self.answers is not None:
                    self.answers.given(owes.interaction_id)
            except Exception as exc:
                told = saved_but(row, exc, "the new board")
                if owes is not None and self.answers is not None and interaction.response.is_done():
                    await self.answers.failed(interaction)  # completed with a link once the outbox posts the board
                    self.outbox.kick(row.id, delay=FAILED_BACKOFF_S[0])
                    return
                raise told from exc
        if missed:
            dms = MoveSaved(_(DMS_LATE, names=join_names(missed), command=command("game hand")))
            await reply_ephemeral(interaction, str(dms))

    async def resign(self, interaction: discord.Interaction, row: GameRow, hand_to: str | None = None) -> None:
        """Take the caller out of an active game, or hand their seat to a computer player of level `hand_to`."""
        if row.status == LOBBY:
            raise UserError(_("The game has not started: use {command}.", command=command("game leave")))
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        if hand_to is not None:
            if row.seats[seat].is_bot:
                raise UserError(_("A computer player already plays your seat."))
            await self._hand_to_bot(interaction, row, seat, hand_to)
            return
        owes = self._owes(interaction, row, None)
        async with self.outbox.holding(row.id):
            resigning = self.commit(row.id, {"type": "resign"}, user_id=interaction.user.id, owes=owes)
            done = await in_time(interaction, resigning, lambda: self._early(interaction, row, owes, None))
            try:
                await defer(interaction, None)
                await self.publisher.publish(done.board, done.events, interaction=interaction, previous=done.previous)
                if owes is not None and self.answers is not None:
                    self.answers.given(owes.interaction_id)
            except Exception as exc:
                told = saved_but(row, exc, "the new board")
                if owes is not None and self.answers is not None and interaction.response.is_done():
                    await self.answers.failed(interaction)
                    self.outbox.kick(row.id, delay=FAILED_BACKOFF_S[0])
                    return
                raise told from exc

    @in_game_language
    async def _hand_to_bot(self, interaction: discord.Interaction, row: GameRow, seat: int, hand_to: str) -> None:
        """Let a computer player of level `hand_to` play a seat from now on, and say so in the channel."""
        name = bot_seat_name(row.seats[seat].name)
        await self.db.hand_seat_to_bot(row.id, seat, hand_to, name)
        mention = interaction.user.mention
        if hand_to == "hard":
            text = _("{mention} handed their seat to the hard computer player, {name}.", mention=mention, name=name)
        else:
            text = _("{mention} handed their seat to the easy computer player, {name}.", mention=mention, name=name)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        self.schedule_bots(row.id)

    async def _early(
        self, interaction: discord.Interaction, row: GameRow, owes: PendingAnswer | None, private_note: str | None
    ) -> None:
        """Acknowledge a move still saving near Discord's deadline, its answer promised first (kept across a crash)."""
        if owes is not None and self.answers is not None and not interaction.response.is_done():
            await self.answers.promise_early(replace(owes, version=row.version + 1))
        await defer(interaction, private_note, elsewhere=interaction.channel_id != row.channel_id)

    def _owes(self, interaction: discord.Interaction, row: GameRow, private_note: str | None) -> PendingAnswer | None:
        """Return the answer a move will owe in a "thinking…" placeholder (public or private), to save with the move."""
        elsewhere = interaction.channel_id != row.channel_id
        if self.answers is None or not AnswerKeeper.wants(interaction, private_note, elsewhere=elsewhere):
            return None
        return AnswerKeeper.pending(interaction, row.id)


def changed_after(row: GameRow, sent_at: datetime) -> bool:
    """Return True when a game's last saved change is newer than a command sent at `sent_at`."""
    saved = datetime.fromisoformat(row.updated_at)
    if saved.tzinfo is None:
        saved = saved.replace(tzinfo=UTC)
    return saved > sent_at


def age(interaction: discord.Interaction) -> float:
    """Return how many seconds ago Discord created an interaction."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


async def in_time(interaction: discord.Interaction, work: Awaitable[T], early: Callable[[], Awaitable[None]]) -> T:
    """Await `work`; if it is still waiting (on the database) near Discord's deadline, acknowledge first."""
    task = asyncio.ensure_future(work)
    elapsed = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    done, _pending = await asyncio.wait({task}, timeout=min(ACK_WITHIN_S, max(0.05, ACK_WITHIN_S - elapsed)))
    if not done and not interaction.response.is_done():
        try:
            await early()
        except discord.HTTPException as exc:
            log.warning("could not acknowledge interaction %s early: %s", interaction.id, exc)
    return await task


async def defer(interaction: discord.Interaction, private_note: str | None, *, elsewhere: bool = False) -> None:
    """Acknowledge an action whose answer comes later, in the form `acknowledge` will complete."""
    if interaction.response.is_done():
        return
    message = interaction.message
    if message is not None and (message.flags.ephemeral or elsewhere):
        await interaction.response.defer()
    elif private_note is not None:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer(thinking=message is None)


def saved_but(row: GameRow, error: Exception, what: str) -> MoveSaved:
    """Log a failure after a move was saved and return what the player is told."""
    if isinstance(error, MoveSaved):
        return error
    if isinstance(error, EXPECTED):
        log.warning("game %s: a move was saved but %s failed: %s", row.id, what, error)
    else:
        log.warning("game %s: a move was saved but %s failed", row.id, what, exc_info=error)
    return MoveSaved(_(NEW_BOARD_LATE, command=command("game status")))


async def acknowledge(
    interaction: discord.Interaction, private_note: str | None, *, elsewhere: bool = False
) -> tuple[bool, bool]:
    """Answer an accepted action: close a private menu, reply privately, or defer while the board renders.

    Return whether a public "thinking…" was deleted to make room for the private note (see `Moves._act`), and
    whether the private note was delivered.
    """
    if interaction.response.is_done():
        message = interaction.message
        if message is not None and (message.flags.ephemeral or elsewhere):
            note = private_note or _("Done: see the new board in the channel.")
            await interaction.edit_original_response(content=note, view=None, attachments=[])
        elif private_note is not None:
            return await note_privately(interaction, private_note)
        return False, False
    message = interaction.message
    if message is not None and (message.flags.ephemeral or elsewhere):
        note = private_note or _("Done: see the new board in the channel.")
        await interaction.response.edit_message(content=note, view=None, attachments=[])
    elif private_note is not None:
        await interaction.response.send_message(private_note, ephemeral=True)
        return False, True
    else:
        await interaction.response.defer(thinking=message is None)
    return False, False


async def note_privately(interaction: discord.Interaction, note: str) -> tuple[bool, bool]:
    """Send a private note to an acknowledged interaction; return whether its public "thinking…" was deleted first
    and whether the note arrived.

    Discord puts the first follow-up in a public placeholder, so that one is deleted first: a note must never show
    in the channel. Between the two the player has nothing, so the caller drops the owed answer's entry only once
    the note went out, and after a crash in between the answer keeper sends the note privately (ui/answers.py).
    """
    dropped = False
    try:
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
            dropped = await drop_placeholder(interaction)
        await interaction.followup.send(note, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not deliver the private note of interaction %s: %s", interaction.id, exc)
        return dropped, False
    return dropped, True


def public_followups(
    interaction: discord.Interaction, private_note: str | None, *, elsewhere: bool, noted: bool
) -> bool:
    """Tell whether an acknowledged move's next follow-ups are public messages in its game's channel.

    Discord does not count follow-ups against the bot's global limit, so a board goes out as one where it can.
    A press in a DM or on a private menu cannot carry one (it would go there, or reply to a private message). A
    deferred private "thinking…" makes its first follow-up private too, so a secret move's board follows only
    once its note went out: after that, and after a private reply sent at once, each follow-up is public or
    private as it asks. A public move's board answers its public "thinking…" or follows the press on the board.
    """
    message = interaction.message
    if elsewhere or (message is not None and message.flags.ephemeral):
        return False
    return private_note is None or noted
