"""Offer a player, privately and for a short while, to ask for a move back where a misclick is likely.

A misclick is likely after a tap on a board's menu or button that chose among several moves; never after a
private choice (a Gourami discard or keep, a Flippers set-up discard), a typed command, or a forced move. The
offer carries the version it was made at and when it runs out, so a press after the next move or after its time
is refused even after a restart; while this process runs, it is greyed out as soon as it no longer applies (the
next board, the game's end) or its time is over.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from engine.takeback import PRIVATE_CHOICES, alone_against_computers
from i18n import N_, _, using
from i18n.context import current
from storage.database import ACTIVE, Database, GameRow
from ui.errors import UserError
from ui.loading import GameLoader
from ui.mentions import command
from ui.takeback_buttons import TakebackButton
from ui.takeback_plans import plan, still_playing
from ui.takebacks import Takebacks

log = logging.getLogger(__name__)

OFFER_SECONDS = 60.0
"""How long a player may press the offer after their move."""
NO_LONGER = N_("That move can no longer be taken back.")
RUN_OUT = N_("To take that move back now, ask with {command}.")


@dataclass
class Offer:
    """One offer shown: its message (edited through the interaction's token), its game's version and language."""

    message: discord.WebhookMessage
    game_id: int
    version: int
    language: str
    until: int


def likely_misclick(
    interaction: discord.Interaction, kind: str, action: dict[str, Any], choices: Callable[[], int]
) -> bool:
    """Return True after a tap that chose one of several moves (`choices` counts them, last), not a private choice."""
    return (
        interaction.type == discord.InteractionType.component
        and action.get("type") not in PRIVATE_CHOICES.get(kind, frozenset())
        and choices() > 1
    )


class Offers:
    """Show the offers and grey them out when they no longer apply."""

    def __init__(self, db: Database, loader: GameLoader, takebacks: Takebacks) -> None:
        self.db = db
        self.loader = loader
        self.takebacks = takebacks
        self._live: dict[int, list[Offer]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def offer(self, interaction: discord.Interaction, played: GameRow, action: dict[str, Any]) -> None:
        """After a person's move, offer them to ask for it back, where a misclick is likely and a takeback possible.

        `played` is the game as it was before the move (its server and rating do not change): the choice the
        player had is read from it, and the server's rules first, so that where takebacks are not allowed a
        move reads nothing more.
        """
        seat = played.seat_of(interaction.user.id)
        if seat is None or played.state is None:
            return
        game, before = self.loader.live(played)
        if not likely_misclick(interaction, played.kind, action, lambda: len(game.legal_actions(before, seat))):
            return
        try:
            rules = await self.takebacks.allowed(played)
        except UserError:
            return
        row = await self.db.game(played.id)
        if row is None or row.status != ACTIVE:
            return
        log_entries = await self.db.actions(row.id)
        try:
            plan(game, row, log_entries, seat)
        except UserError:
            return
        _game, state = self.loader.live(row)
        alone = not any(not s.is_bot and s.seat != seat and still_playing(game, state, s.seat) for s in row.seats)
        if alone and alone_against_computers(log_entries, seat) >= rules.computer_takebacks:
            return
        until = math.ceil(self.db.clock().timestamp() + OFFER_SECONDS)
        view = discord.ui.View(timeout=None)
        view.add_item(TakebackButton("offer", row.id, row.version, until=until))
        try:
            message = await interaction.followup.send(
                _("Misclicked? You can ask to take that move back."), view=view, ephemeral=True, wait=True
            )
        except discord.HTTPException as exc:
            log.info("could not offer a takeback in game %s: %s", row.id, exc)
            return
        shown = Offer(message, row.id, row.version, current(), until)
        self._live.setdefault(row.id, []).append(shown)
        self._start(self._run_out(shown))

    def on_board(self, row: GameRow) -> None:
        """Grey out the offers of a game whose board changed since they were made (its next move, its end)."""
        live = self._live.get(row.id, [])
        stale = [o for o in live if o.version != row.version or row.status != ACTIVE]
        for shown in stale:
            self._start(self._grey(shown, NO_LONGER))

    async def _run_out(self, shown: Offer) -> None:
        """Grey out an offer once its time is over."""
        await asyncio.sleep(OFFER_SECONDS)
        await self._grey(shown, RUN_OUT)

    async def _grey(self, shown: Offer, text: str) -> None:
        """Disable an offer's button and say why (`text`, in the offer's language), once."""
        live = self._live.get(shown.game_id, [])
        if shown not in live:
            return
        live.remove(shown)
        if not live:
            self._live.pop(shown.game_id, None)
        view = discord.ui.View(timeout=None)
        view.add_item(TakebackButton("offer", shown.game_id, shown.version, until=shown.until, disabled=True))
        try:
            with using(shown.language):
                await shown.message.edit(content=_(text, command=command("game takeback")), view=view)
        except discord.HTTPException as exc:
            log.info("could not grey out a takeback offer in game %s: %s", shown.game_id, exc)

    def _start(self, work: Any) -> None:
        """Run a piece of greying in the background, kept until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop waiting to grey out offers (at shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
