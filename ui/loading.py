"""Find a channel's game and load its live state, refusing a damaged save."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import discord

from engine.base import CorruptState, Game
from engine.legacy import rules_of_save
from engine.registry import games, get
from i18n import N_, _
from storage.database import ACTIVE, LOBBY, OPEN, Database, GameRow
from ui.adapter import Board
from ui.errors import UserError
from ui.mentions import command

log = logging.getLogger(__name__)

NO_GAME = N_("There is no game in this channel. Start one with {command}.")
JUST_ENDED = timedelta(minutes=30)
"""How long after its last move /game status and /game hint still show a finished game's final standings."""


class GameLoader:
    """Load saved games for the paths that act on them."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.on_loaded: Callable[[GameRow], None] = lambda row: None
        """Called with each game a player's command loads (the outbox posts a board that is behind)."""

    async def game_here(self, interaction: discord.Interaction, *, damaged_ok: bool = False) -> GameRow:
        """Return the open game in the interaction's channel, or refuse (also when its row is damaged, unless
        `damaged_ok`: a damaged game can still be cancelled)."""
        row = await self.db.open_game_in(interaction.channel_id or 0)
        if row is None:
            raise UserError(_(NO_GAME, command=command("game new")))
        if not damaged_ok:
            check_row(row)
        self.on_loaded(row)
        return row

    async def just_ended(self, interaction: discord.Interaction) -> GameRow | None:
        """Return the game that finished in this channel within JUST_ENDED, when no game is open here, else None."""
        channel = interaction.channel_id or 0
        if await self.db.open_game_in(channel) is not None:
            return None
        rows = await self.db.backend.fetch(
            "SELECT MAX(id) FROM games WHERE channel_id = ? AND status = 'finished'", (channel,)
        )
        found = rows[0][0] if rows else None
        row = None if found is None else await self.db.game(int(found))
        if row is None or row_damage(row):
            return None
        ended = datetime.fromisoformat(row.updated_at)
        return row if self.db.clock() - ended <= JUST_ENDED else None

    async def active_game(self, interaction: discord.Interaction, kind: str) -> GameRow:
        """Return this channel's game of `kind` once it has started, or refuse."""
        row = await self.game_here(interaction)
        if row.kind != kind:
            raise UserError(
                _("The game in this channel is {this}, not {that}.", this=get(row.kind).title, that=get(kind).title)
            )
        if row.status != ACTIVE:
            raise UserError(
                _("The game has not started yet: the host starts it with {command}.", command=command("game start"))
            )
        return row

    async def caller_seat(self, interaction: discord.Interaction, kind: str) -> tuple[Any, int] | None:
        """Return the live state and the caller's seat in this channel's game of `kind`, or None (for autocomplete)."""
        row = await self.db.open_game_in(interaction.channel_id or 0)
        if row is None or row.kind != kind or row.status != ACTIVE or row_damage(row):
            return None
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            return None
        try:
            return self.live(row)[1], seat
        except UserError:
            return None

    def live(self, row: GameRow) -> tuple[Game, Any]:
        """Return the rules and the state of a game, refusing a damaged save.

        An open game plays on under today's rules (its save migrated); an ended game keeps the rules it was
        saved under, so its board and standings show what was decided then.
        """
        game = get(row.kind) if row.status in OPEN else rules_of_save(row.kind, row.state)
        if row.state_error or row.state is None:
            raise UserError(damaged(row, row.state_error or "no state saved"))
        try:
            state = game.load(row.state)
        except CorruptState as exc:
            raise UserError(damaged(row, str(exc))) from exc
        players = getattr(state, "players", None)  # every built-in game's state counts its seats
        if isinstance(players, int) and players != len(row.seats):
            raise UserError(damaged(row, f"the state has {players} seats, the seats table {len(row.seats)}"))
        return game, state

    def board(self, row: GameRow, *, disabled: bool = False) -> Board:
        """Return the live board of an active game."""
        game, state = self.live(row)
        return Board(row, game, state, row.version, disabled)


def row_damage(row: GameRow) -> str | None:
    """Return what is wrong with a saved game's row (a game this bot lacks, seats with a gap), or None."""
    if row.kind not in games():
        return f"unknown game {row.kind!r}"
    numbers = [s.seat for s in row.seats]
    if numbers != list(range(len(numbers))) or (row.status != LOBBY and not numbers):
        return f"seats are {numbers}, not 0..{len(numbers) - 1}"
    return None


def check_row(row: GameRow) -> None:
    """Refuse, in one sentence, a saved game whose row is damaged."""
    if (why := row_damage(row)) is not None:
        raise UserError(damaged(row, why))


def damaged(row: GameRow, why: str) -> str:
    """Log a damaged save (a warning: the data, not the code, is at fault) and return what players are told."""
    log.warning("game %s has a damaged save: %s", row.id, why)
    return _(
        "The saved data of game #{id} is damaged, so it cannot go on. "
        "The host or a moderator can end it with {command}.",
        id=row.id,
        command=command("game cancel"),
    )
