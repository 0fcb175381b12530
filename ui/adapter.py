"""Define what each game's cog tells the shared turn flow: images, components and private views."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from engine.base import Event, Game, Outcome
from engine.registry import get
from engine.words import join_names
from i18n import _, ngettext
from storage.database import GameRow
from ui.text import ALT_TEXT, shorten

if TYPE_CHECKING:
    from ui.components import ComponentHit


@dataclass
class Board:
    """Bundle one saved game with its live state, for building a board message."""

    row: GameRow
    game: Game
    state: Any
    version: int
    disabled: bool = False
    notes: tuple[str, ...] = ()
    """Lines the board message adds after its status (hints used, rating changes)."""

    @property
    def names(self) -> list[str]:
        """Return the seat names."""
        return self.row.names


@dataclass(frozen=True)
class Picture:
    """Hold a rendered PNG with its file name and alt text."""

    png: bytes
    filename: str
    alt: str

    def file(self) -> discord.File:
        """Return a fresh discord.File (a File can be sent only once)."""
        import io

        return discord.File(io.BytesIO(self.png), filename=self.filename, description=shorten(self.alt, ALT_TEXT))


class Table(Protocol):
    """Name what a game's board components may ask of the turn flow."""

    async def act(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        action: dict[str, Any],
        *,
        expected_version: int | None = None,
        private_note: str | None = None,
    ) -> None:
        """Apply, save and announce one player's action."""

    async def show_hand(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Show the caller their private view, ephemerally."""


class GameAdapter(ABC):
    """Connect one game's rules to Discord: pictures, board components and private messages."""

    key: str

    @property
    def game(self) -> Game:
        """Return the game's rules from the engine registry."""
        return get(self.key)

    @abstractmethod
    def board_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the public view (runs in a worker thread)."""

    @abstractmethod
    def board_items(self, board: Board) -> list[discord.ui.Item[Any]]:
        """Return the selects and buttons that go on the board message."""

    @abstractmethod
    async def on_component(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit
    ) -> None:
        """Handle a press on one of this game's board components."""

    def accepts_stale(self, hit: ComponentHit) -> bool:
        """Return True when a press on an older board version may still be handled (the adapter re-checks it)."""
        return False

    turn_closers: frozenset[str] = frozenset()
    """Event kinds that close a turn's summary on a board edited in place (what follows goes on the next board)."""

    def turn_start(self, logged: Sequence[Event], fresh: int) -> int:
        """Return where in a game's event log the turn continued by the events from `fresh` on begins.

        By default a turn begins after its "turn_start" event (whose line closed the previous board).
        """
        return next((i + 1 for i in range(fresh - 1, -1, -1) if logged[i].kind == "turn_start"), 0)

    def turn_in_place(self, events: Sequence[Event]) -> bool:
        """Return True when these events continue the turn on the current board, which is then edited in place.

        Such a turn keeps one public message: each step edits it (new picture, summary lines appended) and
        the next player's board, with its ping, is posted only when the turn ends.
        """
        return False

    picture_after_turn_in_place = False
    """Post the next board with its picture too when a turn edited in place ends (else text, ping and menus only)."""

    def still_in_place(self, game: Game, state: Any) -> bool:
        """Return True while the board edited in place stays the live board (by default: while a turn goes on)."""
        return any(game.mid_turn(state, s) for s in game.to_act(state))

    pings_turns = False
    """Ping players under a board edited in place (`pings_in_place`): a new board or the game's end deletes the ping."""

    def pings_in_place(self, events: Sequence[Event], state: Any) -> list[int]:
        """Return the seats to ping in a short message when these events edit the live board in place.

        An edit does not notify anyone, so a seat whose move becomes due while the board stays in place
        (say, the next Leader to place) is pinged once, in a line of its own, without a second picture.
        """
        return []

    def private_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture | None:
        """Render what one seat alone may see, or None for games with nothing hidden (runs in a thread)."""
        return None

    def private_text(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """Describe one seat's private view in text."""
        return _("{title} has no hidden cards: everything is on the board.", title=self.game.title)

    def private_items(self, board: Board, seat: int) -> list[discord.ui.Item[Any]]:
        """Return components for a seat's private message (e.g. a discard choice)."""
        return []

    def seats_to_update_privately(self, events: Sequence[Event], state: Any) -> set[int]:
        """Return the seats whose private view changed and should get a DM."""
        return set()

    def menus_still_live(self, state: Any) -> set[int]:
        """Return the seats whose DM menu stays live when others act (a choice made by all at once)."""
        return set()

    def congratulations(self, outcome: Outcome, mentions: Sequence[str]) -> str:
        """Return the line congratulating the winners (`mentions` holds each seat's mention)."""
        winners = [mentions[s] for s in outcome.winners]
        if not winners:
            return _("Nobody wins this time.")
        return _("Congratulations {winners}!", winners=join_names(winners))

    def standings_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Return one line per seat of the final standings."""
        lines = []
        for s in outcome.standings:
            if s.winner:
                line = ngettext(
                    "{rank}. 🏆 {name}: {n} point",
                    "{rank}. 🏆 {name}: {n} points",
                    s.score,
                    rank=s.rank,
                    name=names[s.seat],
                )
            else:
                line = ngettext(
                    "{rank}. {name}: {n} point", "{rank}. {name}: {n} points", s.score, rank=s.rank, name=names[s.seat]
                )
            lines.append(line)
        return lines


_ADAPTERS: dict[str, GameAdapter] = {}


def register(adapter: GameAdapter) -> None:
    """Make a game's adapter available to the flow (called from its cog's setup)."""
    _ADAPTERS[adapter.key] = adapter


def adapter_for(key: str) -> GameAdapter:
    """Return the adapter for a game key."""
    try:
        return _ADAPTERS[key]
    except KeyError:
        raise KeyError(f"no Discord adapter registered for game {key!r}") from None
