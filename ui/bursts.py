"""Acknowledge moves at once when many arrive together, before any database work."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable

import discord

from storage.errors import StorageError
from ui.answers import AnswerKeeper
from ui.moves import DEEP, LATE_S, age

log = logging.getLogger(__name__)

STALE_S = 30.0
"""A command still counted as in hand after this long is forgotten (its end was never reported)."""

GAMES_KEPT = 10_000
"""How many channels' game ids are remembered for early promises (least recently moved in forgotten first)."""

ACKS_FIRST_S = 1.0
"""The longest a move acknowledged in a burst waits for the others' acknowledgements before its own work."""

MOVE = "move"
"""The key of a slash command's `extras` naming how its answer is shown: "public" or "private"."""


class Bursts:
    """Count the slash commands in hand, and defer a move at once when many are or it arrived late."""

    def __init__(self, answers: AnswerKeeper | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.answers = answers
        self.clock = clock
        self.handling: dict[int, float] = {}
        """Interaction id -> when its command reached the bot, until it has been answered or refused."""
        self.games: OrderedDict[int, int] = OrderedDict()
        """Channel id -> the id of the game last moved in there (a promise must name a saved game)."""
        self.unacknowledged = 0
        """Commands that reached the bot and were neither acknowledged early nor let through yet."""
        self._all_acknowledged = asyncio.Event()
        self._all_acknowledged.set()

    def learn(self, channel_id: int, game_id: int) -> None:
        """Remember which game a channel plays, as a move there is handled."""
        self.games[channel_id] = game_id
        self.games.move_to_end(channel_id)
        while len(self.games) > GAMES_KEPT:
            self.games.popitem(last=False)

    def arrived(self, interaction_id: int) -> int:
        """Count one command in hand and return how many are (those forgotten for too long are dropped)."""
        now = self.clock()
        if len(self.handling) > DEEP:
            for stale in [i for i, since in self.handling.items() if since < now - STALE_S]:
                del self.handling[stale]
        self.handling[interaction_id] = now
        return len(self.handling)

    def busy(self) -> bool:
        """Tell whether a burst is in hand (more commands than a quiet channel sends at once)."""
        return len(self.handling) > DEEP

    def done(self, interaction_id: int) -> None:
        """Count a command as no longer in hand."""
        self.handling.pop(interaction_id, None)

    async def early(self, interaction: discord.Interaction) -> bool:
        """Defer a move command before its game is read when the queue is deep; return whether it was deferred.

        A "thinking…" (public, or private for a secret move) is promised first, under the game last moved in this
        channel, so that if the bot dies before the move is saved the placeholder still gets its answer after the
        restart ("not applied");
        saving the move records the game and version it made. A channel with no known game is left alone.
        """
        if interaction.type == discord.InteractionType.autocomplete:
            await self.acknowledgements_first()  # a suggestion can wait a moment; a move's acknowledgement cannot
            return False
        if interaction.type != discord.InteractionType.application_command:
            return False
        self.unacknowledged += 1
        self._all_acknowledged.clear()
        try:
            return await self._early(interaction)
        finally:
            self.unacknowledged -= 1
            if self.unacknowledged == 0:
                self._all_acknowledged.set()

    async def acknowledgements_first(self) -> None:
        """Wait while other commands wait for their acknowledgement (up to ACKS_FIRST_S), so theirs go out first."""
        if self.unacknowledged and self.busy():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ACKS_FIRST_S):
                    await self._all_acknowledged.wait()

    async def _early(self, interaction: discord.Interaction) -> bool:
        """Defer a move command before its game is read when the queue is deep (see `early`)."""
        crowd = self.arrived(interaction.id)
        task = asyncio.current_task()
        if task is not None:  # the command runs in this task to its end, answered or refused
            task.add_done_callback(lambda _task: self.done(interaction.id))
        command = interaction.command
        shown = command.extras.get(MOVE) if command is not None else None
        if shown is None or interaction.response.is_done() or (crowd <= DEEP and age(interaction) <= LATE_S):
            return False
        if self.answers is not None:  # a private "thinking…" (a secret move) is owed its answer as much
            game_id = self.games.get(interaction.channel_id or 0)
            if game_id is None:
                return False  # no game known here yet: its own flow reads the game, then acknowledges
            try:
                await self.answers.promise(AnswerKeeper.pending(interaction, game_id))
            except StorageError as exc:
                log.warning("could not promise an answer to interaction %s early: %s", interaction.id, exc)
                return False
        try:
            await interaction.response.defer(ephemeral=shown == "private", thinking=True)
        except discord.HTTPException as exc:  # expired in the queue: the move is still tried, and answered if it can be
            log.warning("could not acknowledge interaction %s at once: %s", interaction.id, exc)
            return False
        return True
