"""Give every acknowledged move its answer: a "thinking…" whose board did not follow is completed later.

The interaction's token is saved with the game and the version the move made (storage/answers.py) in the
transaction that saves the move. A move acknowledged ahead of its save (a burst, or a database still saving near
Discord's deadline) is promised first in this process's journal file (storage/answer_journal.py), on disk
before the acknowledgement, as the database may be what is slow; the entry leaves the journal once the move's
transaction saved it or it was answered, and a restarted process takes over what a killed one promised. When
the board follows in the placeholder, the entry is dropped (a few at a time). When it does not (the bot was
killed, the follow-up failed), the placeholder says the move was saved and, once the outbox has posted the
board, links to it; a move acknowledged early that never saved says so. Discord keeps a token for 15 minutes,
so this also works after a restart; older entries are dropped (the board, with the move, is in the channel).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from i18n import LANGUAGES, N_, _, using
from storage.answer_journal import AnswerJournal
from storage.answers import PendingAnswer, PendingAnswers
from storage.database import LOBBY, Database, GameRow, StorageError
from storage.errors import DatabaseBusy, DatabaseUnavailable
from ui.errors import FIRST_BOARD_LATE
from ui.mentions import command

log = logging.getLogger(__name__)

TOKEN_LIFE_S = 15 * 60
"""How long Discord accepts edits of an interaction's original response."""
MARGIN_S = 20.0
"""Give up on a token this long before it expires (an edit sent later may arrive too late)."""
CHECK_S = 5.0
UNKNOWN_MESSAGE = 10008
"""Discord's error code for a message that is gone (the placeholder was deleted; the token still works)."""
SAVED_WAITING = N_("Your move was saved. Its board will be posted in the channel as soon as Discord lets me.")
SAVED_POSTED = N_("Your move was saved. Its board is in the channel: {link}")
STARTED_POSTED = N_("The game has started. Its first board is in the channel: {link}")
NOT_SAVED = N_(
    "Your move was not applied (the bot restarted before saving it). Nothing was changed: please send it again."
)


def interim_notes() -> set[str]:
    """Return the note that a saved move's board comes later, in every language (a placeholder may hold any)."""
    notes = set()
    for language in LANGUAGES:
        with using(language):
            notes.add(_(SAVED_WAITING))
    return notes


def first_version(row: GameRow, log: list[dict[str, Any]]) -> int | None:
    """Return the version a game was dealt at (before its first logged move), or None while it is a lobby."""
    if row.status == LOBBY:
        return None
    return min((int(e["version"]) for e in log), default=row.version + 1) - 1


def board_link(row: GameRow) -> str:
    """Return a link to a game's current board message, or to its channel."""
    if row.guild_id and row.board_message_id:
        return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.board_message_id}"
    return f"<#{row.channel_id}>"


class AnswerKeeper:
    """Remember which placeholders still wait for their board, and complete them from the saved game."""

    def __init__(
        self,
        bot: discord.Client,
        db: Database,
        clock: Callable[[], float] = time.time,
        journal: AnswerJournal | None = None,
    ) -> None:
        self.bot = bot
        self.db = db
        self.store = PendingAnswers(db.backend)
        self.journal = journal
        """Where promises are written (without one, as for an in-memory test database: the database)."""
        self._journaled: set[int] = set()
        """Interactions whose entry is in the journal only (not yet saved with their move)."""
        self._journal_kept = 0
        """How many entries the journal file held at its last rewrite (it is rewritten when fewer are left)."""
        self.clock = clock
        self.owed: dict[int, PendingAnswer] = {}
        """Interaction id -> the answer it is owed, once its move is saved and unless its board followed."""
        self._answering: set[int] = set()
        """Interactions whose own flow is posting their board right now (the keeper leaves them alone)."""
        self._given: list[int] = []
        """Entries to drop from the database on the next check (one DELETE for many)."""
        self._settling: dict[int, asyncio.Task[None]] = {}
        self._promising: list[tuple[PendingAnswer, asyncio.Future[None]]] = []
        """Promises waiting for the next write (see `promise`)."""
        self._promiser: asyncio.Task[None] | None = None
        self.loaded = asyncio.Event()
        """Set once the entries a previous run left are read (at start-up)."""
        self.expirers: list[Callable[[], Awaitable[object]]] = []
        """Forget other saved tokens about to expire (private menus' replies), at every check."""

    @staticmethod
    def wants(interaction: discord.Interaction, private_note: str | None, *, elsewhere: bool = False) -> bool:
        """Tell whether a move may be acknowledged with a "thinking…" placeholder its answer must replace.

        A slash command's is public (its board replaces it) or private (a secret move's note replaces it); a
        secret move chosen on the public board gets a private one. A press on a private menu (an ephemeral
        reply, a DM) is acknowledged by updating that menu: no placeholder waits.
        """
        message = interaction.message
        if message is None:
            return True
        return private_note is not None and not message.flags.ephemeral and not elsewhere

    @staticmethod
    def pending(interaction: discord.Interaction, game_id: int) -> PendingAnswer:
        """Return the entry an interaction will owe (its version is set when the move is saved)."""
        return PendingAnswer(
            interaction.id,
            interaction.application_id,
            interaction.token,
            game_id,
            0,
            interaction.user.id,
            interaction.created_at.timestamp(),
        )

    async def promise(self, answer: PendingAnswer) -> None:
        """Save an entry before acknowledging a move that is not saved yet (a burst, or a slow database).

        Promises made while an earlier one is being written are saved together in the next write (one fsync of
        the journal, or one transaction without a journal), so a burst of moves waits for a few writes.
        """
        saved = asyncio.get_running_loop().create_future()
        self._promising.append((answer, saved))
        if self._promiser is None or self._promiser.done():
            self._promiser = asyncio.get_running_loop().create_task(self._save_promises())
        await saved
        if self.journal is not None:
            self._journal_kept += 1
        if self.owed.setdefault(answer.interaction_id, answer) is not answer:
            return  # its move was saved meanwhile, with the entry the database now holds
        self._answering.add(answer.interaction_id)
        if self.journal is not None:
            self._journaled.add(answer.interaction_id)

    async def promise_early(self, answer: PendingAnswer) -> None:
        """Promise the answer of a move acknowledged while its save still waits, if that waits for no database.

        Only the journal is written beside a slow database; without one the acknowledgement goes out unpromised.
        """
        if self.journal is None:
            return
        try:
            await self.promise(answer)
        except OSError as exc:  # the local disk failed: the move is still acknowledged and saved
            log.warning("could not promise the answer of interaction %s: %s", answer.interaction_id, exc)

    async def _save_promises(self) -> None:
        """Save the promises waiting, a transaction at a time, until none is left."""
        while self._promising:
            batch, self._promising = self._promising, []
            try:
                await (self.journal or self.store).save_many([answer for answer, _saved in batch])
            except Exception as exc:  # each promise raises it to its own caller
                for _answer, saved in batch:
                    if not saved.done():
                        saved.set_exception(exc)
                continue
            for _answer, saved in batch:
                if not saved.done():
                    saved.set_result(None)

    def saved(self, answer: PendingAnswer) -> None:
        """Note an entry saved with its move; its own flow is now posting the board."""
        self.owed[answer.interaction_id] = answer
        self._answering.add(answer.interaction_id)
        self._journaled.discard(answer.interaction_id)  # the database holds it now

    async def given_now(self, interaction_id: int) -> None:
        """Drop an entry at once, not at the next check: its placeholder is gone, so a restart must not answer again."""
        self._answering.discard(interaction_id)
        if self.owed.pop(interaction_id, None) is not None:
            try:
                await self.store.forget(interaction_id)
            except StorageError as exc:
                self._given.append(interaction_id)  # the next check tries again
                log.info("the answer of interaction %s stays listed until the next check: %s", interaction_id, exc)

    def given(self, interaction_id: int) -> None:
        """Drop the entry of an interaction whose answer arrived (its board, or a private reply); see `failed`."""
        if interaction_id not in self._answering:
            return  # not saved, or its board failed: the keeper completes it
        self._answering.discard(interaction_id)
        if self.owed.pop(interaction_id, None) is not None:
            self._given.append(interaction_id)

    async def failed(self, interaction: discord.Interaction) -> None:
        """Say in the placeholder, now, that the move was saved and its board comes later; complete it then.

        A placeholder the board already replaced (something after the post failed) is left as it is.
        """
        try:
            if not (await interaction.original_response()).flags.loading:
                self.given(interaction.id)
                return
            self._answering.discard(interaction.id)
            await interaction.edit_original_response(content=_(SAVED_WAITING), attachments=[], view=None)
        except discord.HTTPException as exc:
            self._answering.discard(interaction.id)  # the keeper tries again while the token lives
            log.warning("could not tell interaction %s its move was saved: %s", interaction.id, exc)

    def published(self, row: GameRow) -> None:
        """Complete, soon, the placeholders of a game whose board was just posted."""
        if any(a.game_id == row.id and a.interaction_id not in self._answering for a in self.owed.values()):
            task = self._settling.get(row.id)
            if task is None or task.done():
                self._settling[row.id] = asyncio.get_running_loop().create_task(self.settle(row.id))

    async def load(self) -> int:
        """Read the entries a previous run left (after a crash); drop the expired ones; return how many are left."""
        adopted = await self.journal.take_over() if self.journal is not None else []
        self._journal_kept += len(adopted)
        await self.store.forget_older_than(self.clock() - TOKEN_LIFE_S + MARGIN_S)
        for answer in await self.store.all():  # saved with its move: newer than its promise
            self.owed.setdefault(answer.interaction_id, answer)
        for answer in adopted:
            if answer.interaction_id not in self.owed and answer.created_at > self.clock() - TOKEN_LIFE_S + MARGIN_S:
                self.owed[answer.interaction_id] = answer
                self._journaled.add(answer.interaction_id)
        return len(self.owed)

    async def run(self) -> None:
        """Once connected, load what a previous run left, then check the owed answers every few seconds."""
        await self.bot.wait_until_ready()
        loaded = False
        while True:
            try:
                if not loaded:
                    await self.load()
                    loaded = True
                    self.loaded.set()
                await self.check()
            except (DatabaseUnavailable, DatabaseBusy) as exc:  # storage logs an outage once; the next check resumes
                log.info("completing owed answers waits for the database: %s", exc)
            except Exception:
                log.exception("completing owed answers failed")
            await asyncio.sleep(CHECK_S)

    async def check(self) -> None:
        """Drop the entries of answers given, and complete what the games whose boards are posted owe."""
        given = self._given[:]
        await self.store.forget(*given)
        del self._given[: len(given)]  # only once they are gone: a failed write leaves them for the next check
        games = {a.game_id for a in self.owed.values() if a.interaction_id not in self._answering}
        for game_id in games:
            await self.settle(game_id)
        await self.expire()
        await self.tidy_journal()

    async def tidy_journal(self) -> None:
        """Rewrite the journal without the entries answered or saved with their move since it was last written."""
        self._journaled &= set(self.owed)
        if self.journal is None or len(self._journaled) == self._journal_kept:
            return
        kept = [self.owed[i] for i in self._journaled]
        await self.journal.keep_only(kept)
        self._journal_kept = len(kept)

    async def expire(self) -> None:
        """Delete every saved token Discord no longer accepts, even one its own flow still holds."""
        dead_before = self.clock() - TOKEN_LIFE_S
        if await self.store.forget_older_than(dead_before):
            for interaction_id in [i for i, a in self.owed.items() if a.created_at < dead_before]:
                self.owed.pop(interaction_id, None)
                self._answering.discard(interaction_id)
        for expire in self.expirers:
            await expire()

    async def settle(self, game_id: int) -> None:
        """Complete every owed placeholder of a game whose board is posted; drop those about to expire."""
        row = await self.db.game(game_id)
        owed = [a for a in self.owed.values() if a.game_id == game_id and a.interaction_id not in self._answering]
        log = await self.db.actions(game_id) if owed else []
        with using(row.language if row is not None else None):  # the placeholders are public, in the channel
            for answer in owed:
                expiring = self.clock() > answer.created_at + TOKEN_LIFE_S - MARGIN_S
                started = row is not None and answer.version == first_version(row, log)
                if started and row is not None and row.posted_version >= answer.version:
                    await self.complete(answer, _(STARTED_POSTED, link=board_link(row)), saved=True)
                elif started:
                    if expiring:
                        await self.complete(answer, _(FIRST_BOARD_LATE, command=command("game status")), saved=True)
                elif not any(e["version"] == answer.version and e["user_id"] == answer.user_id for e in log):
                    await self.complete(answer, _(NOT_SAVED))  # acknowledged early, then the bot died before saving
                elif row is not None and row.posted_version >= answer.version:
                    await self.complete(answer, _(SAVED_POSTED, link=board_link(row)), saved=True)
                elif row is None or expiring:
                    await self.complete(answer, _(SAVED_WAITING), saved=True)

    async def complete(self, answer: PendingAnswer, text: str, *, saved: bool = False) -> None:
        """Edit an owed placeholder (if it still waits, or holds our interim note) and forget the entry.

        A placeholder deleted to make room for a private note (see `Moves`) whose note never followed, the move
        being `saved`, gets the text as a private follow-up instead.
        """
        webhook = discord.Webhook.partial(answer.application_id, answer.token, client=self.bot)
        webhook.type = discord.WebhookType.application  # an interaction's: it may send private follow-ups
        try:
            try:
                original = await webhook.fetch_message("@original")  # type: ignore[arg-type]
            except discord.NotFound as gone:
                if saved and gone.code == UNKNOWN_MESSAGE:  # acknowledged, then its placeholder deleted
                    await webhook.send(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
                    log.info("answered interaction %s privately (game %s)", answer.interaction_id, answer.game_id)
                raise
            if original.flags.loading or original.content in interim_notes():
                await webhook.edit_message(  # type: ignore[arg-type]
                    "@original", content=text, allowed_mentions=discord.AllowedMentions.none()
                )
                log.info("completed the answer of interaction %s (game %s)", answer.interaction_id, answer.game_id)
        except (discord.NotFound, discord.Forbidden):
            pass  # never acknowledged, or the token expired: nothing left to answer
        except discord.HTTPException as exc:
            if self.clock() < answer.created_at + TOKEN_LIFE_S - MARGIN_S:
                log.warning("could not complete interaction %s yet: %s", answer.interaction_id, exc)
                return  # tried again on the next check
        if answer.interaction_id in self.owed:
            await self.store.forget(answer.interaction_id)
            self.owed.pop(answer.interaction_id, None)

    async def close(self) -> None:
        """Drop the entries of the answers given so far (on shutdown)."""
        for task in self._settling.values():
            task.cancel()
        await asyncio.gather(*self._settling.values(), return_exceptions=True)
        given, self._given = self._given, []
        await self.store.forget(*given)
        if self.journal is not None:  # what is still owed stays in its file, for the next start
            await self.tidy_journal()
            self.journal.close()
