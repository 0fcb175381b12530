"""Define the game-agnostic interface every game's rules implement."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

Action = dict[str, Any]
"""A JSON-safe action, always with a "type" key, e.g. {"type": "move", "from": "B3", "to": "E3"}."""

S = TypeVar("S")


class IllegalAction(Exception):
    """Raise when an action breaks the rules; the message is shown to the player as is."""


class CorruptState(Exception):
    """Raise when saved JSON cannot be turned back into a game state."""


@dataclass(slots=True)
class Event:
    """Describe one thing an action caused, for logs, summaries and animations."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private_to: int | None = None
    """None: everyone may see this event; otherwise only this seat may."""

    def to_json(self) -> dict[str, Any]:
        """Return the event as a JSON-safe dict."""
        return {"kind": self.kind, "seat": self.seat, "data": self.data, "private_to": self.private_to}


@dataclass(frozen=True)
class OptionSpec:
    """Describe one lobby option a game accepts (a boolean flag)."""

    name: str
    description: str
    default: bool = False


@dataclass(frozen=True)
class Standing:
    """Give one seat's place in the final standings."""

    seat: int
    score: int
    rank: int
    winner: bool
    detail: dict[str, Any] = field(default_factory=dict)
    """Game-specific breakdown, e.g. {"fish": 31, "tiles": 14} or per-fish-type points."""


@dataclass(frozen=True)
class Outcome:
    """Hold the final standings, best first; several seats may share a rank and the victory."""

    standings: list[Standing]
    tiebreak: str = ""
    """One line saying how ties were broken, or "" when none were."""

    @property
    def winners(self) -> list[int]:
        """Return the winning seats."""
        return [s.seat for s in self.standings if s.winner]


class Game(ABC, Generic[S]):
    """Implement the rules of one game; every method is pure apart from `apply`/`resign` mutating state."""

    key: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    schema_version: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    hidden_information: ClassVar[bool] = False
    """True when some seat sees things others do not (hands, aquariums)."""

    @abstractmethod
    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> S:
        """Set up a game for `players` seats; all randomness comes from `seed`."""

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """Return the seats whose input the game is waiting for (empty when over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Return every action `seat` may take now (empty when it may not act)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> list[Event]:
        """Apply `action` by `seat` in place and return its events; if illegal, raise IllegalAction, change nothing."""

    @abstractmethod
    def resign(self, state: S, seat: int) -> list[Event]:
        """Take `seat` out of the game in place; the game goes on or ends coherently."""

    def mid_turn(self, state: S, seat: int) -> bool:
        """Return True when `seat` has begun its turn and must act again before it ends (e.g. activations)."""
        return False

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Return True once the game has ended."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Return the standings (final once the game is over)."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """Return what `seat` may see as JSON-safe data; `None` is the public view."""

    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]:
        """Serialise the state to JSON-safe data carrying "schema": schema_version."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from `dump` output; raise CorruptState on anything malformed."""

    @abstractmethod
    def describe(self, event: Event, names: Sequence[str]) -> str:
        """Return a one-line, player-facing summary of a public event ("" to stay silent)."""

    @abstractmethod
    def status(self, state: S, names: Sequence[str]) -> str:
        """Return one line saying what the game waits for, e.g. "Placement: Ana places a penguin"."""

    @abstractmethod
    def rules_text(self) -> str:
        """Return the rules in a few lines plus the rulings the bot applies."""
