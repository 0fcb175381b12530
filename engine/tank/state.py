"""Hold a game of 10 Gallon Tank in memory and turn it to and from JSON, checking every field on load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import CorruptState
from engine.tank.cards import CARDS, deck_for
from engine.tank.data import RULES, Setup
from engine.tank.grid import LETTERS, Rect, cells

PHASES = ("split", "take", "discard", "over")


@dataclass
class Pending:
    """Hold the Gourami discards a seat may still make right after its take."""

    seat: int
    left: int
    protected: list[str]
    """The cards that granted the discards (the Gouramis just taken); they cannot be discarded."""


@dataclass
class TankState:
    """Hold everything about one game; the deck order is fixed at setup so no RNG state is kept."""

    players: int
    goal: str
    first_start: int
    round: int
    phase: str
    deck: list[str]
    grid: list[str | None]
    groups: dict[str, Rect]
    made: int
    """How many group letters have been handed out this round (letters are never reused in a round)."""
    queue: list[int]
    take_queue: list[int]
    hands: list[list[str]]
    discards: list[str]
    own_discards: list[list[str]]
    resigned: list[bool]
    pending: Pending | None = None

    @property
    def setup(self) -> Setup:
        """Return the rounds, grid side and passes for this player count."""
        return RULES.setup(self.players)

    @property
    def side(self) -> int:
        """Return the grid's number of rows (and columns)."""
        return self.setup.grid


def dump_state(state: TankState, schema: int) -> dict[str, Any]:
    """Return the state as fresh JSON-safe data."""
    return {
        "schema": schema,
        "players": state.players,
        "goal": state.goal,
        "first_start": state.first_start,
        "round": state.round,
        "phase": state.phase,
        "deck": list(state.deck),
        "grid": list(state.grid),
        "groups": {k: list(v) for k, v in state.groups.items()},
        "made": state.made,
        "queue": list(state.queue),
        "take_queue": list(state.take_queue),
        "hands": [list(h) for h in state.hands],
        "discards": list(state.discards),
        "own_discards": [list(d) for d in state.own_discards],
        "resigned": list(state.resigned),
        "pending": None
        if state.pending is None
        else {
            "seat": state.pending.seat,
            "left": state.pending.left,
            "protected": list(state.pending.protected),
        },
    }


def _int(data: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    """Read an int in [lo, hi] or raise CorruptState."""
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise CorruptState(f"{key}: expected an integer in {lo}..{hi}, got {value!r}")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    """Read a list or raise CorruptState."""
    value = data.get(key)
    if not isinstance(value, list):
        raise CorruptState(f"{key}: expected a list, got {type(value).__name__}")
    return value


def _cards(value: Any, where: str) -> list[str]:
    """Check a list of known card ids."""
    if not isinstance(value, list):
        raise CorruptState(f"{where}: expected a list of cards")
    for card in value:
        if not isinstance(card, str) or card not in CARDS:
            raise CorruptState(f"{where}: unknown card {card!r}")
    return list(value)


def _seats(value: Any, where: str, players: int) -> list[int]:
    """Check a list of seat numbers."""
    if not isinstance(value, list):
        raise CorruptState(f"{where}: expected a list of seats")
    for seat in value:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise CorruptState(f"{where}: bad seat {seat!r}")
    return list(value)


def _groups(value: Any, side: int, made: int) -> dict[str, Rect]:
    """Check the groups: lettered rectangles inside the grid that do not overlap."""
    if not isinstance(value, dict):
        raise CorruptState("groups: expected an object")
    groups: dict[str, Rect] = {}
    for name, rect in value.items():
        if name not in LETTERS[:made]:
            raise CorruptState(f"groups: bad letter {name!r}")
        if (
            not isinstance(rect, list)
            or len(rect) != 4
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in rect)
        ):
            raise CorruptState(f"groups: bad rectangle for {name}")
        r0, c0, r1, c1 = rect
        if not (0 <= r0 < r1 <= side and 0 <= c0 < c1 <= side):
            raise CorruptState(f"groups: rectangle of {name} is outside the grid")
        groups[name] = (r0, c0, r1, c1)
    return groups


def load_state(data: Mapping[str, Any], schema: int) -> TankState:
    """Rebuild a state from dump_state output; raise CorruptState on anything malformed."""
    if not isinstance(data, Mapping):
        raise CorruptState("expected an object")
    if data.get("schema") != schema:
        raise CorruptState(f"schema: expected {schema}, got {data.get('schema')!r}")
    players = _int(data, "players", RULES.min_players, RULES.max_players)
    setup = RULES.setup(players)
    goal = data.get("goal")
    if not isinstance(goal, str) or goal not in {g.key for g in RULES.goals}:
        raise CorruptState(f"goal: unknown goal {goal!r}")
    first_start = _int(data, "first_start", 0, players - 1)
    rnd = _int(data, "round", 1, setup.rounds)
    phase = data.get("phase")
    if phase not in PHASES:
        raise CorruptState(f"phase: unknown phase {phase!r}")
    deck = _cards(data.get("deck"), "deck")
    grid_raw = _list(data, "grid")
    if len(grid_raw) != setup.grid * setup.grid:
        raise CorruptState("grid: wrong size")
    grid: list[str | None] = []
    for card in grid_raw:
        if card is not None and (not isinstance(card, str) or card not in CARDS):
            raise CorruptState(f"grid: unknown card {card!r}")
        grid.append(card)
    made = _int(data, "made", 0, len(LETTERS))
    groups = _groups(data.get("groups"), setup.grid, made)
    covered: list[int] = []
    for rect in groups.values():
        covered.extend(r * setup.grid + c for r, c in cells(rect))
    if len(covered) != len(set(covered)):
        raise CorruptState("groups: groups overlap")
    if set(covered) != {i for i, card in enumerate(grid) if card is not None}:
        raise CorruptState("groups: groups do not match the cards on the grid")
    queue = _seats(data.get("queue"), "queue", players)
    take_queue = _seats(data.get("take_queue"), "take_queue", players)
    hands_raw = _list(data, "hands")
    own_raw = _list(data, "own_discards")
    if len(hands_raw) != players or len(own_raw) != players:
        raise CorruptState("hands: one list per seat expected")
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
    own_discards = [_cards(d, f"own_discards[{i}]") for i, d in enumerate(own_raw)]
    discards = _cards(data.get("discards"), "discards")
    resigned = _list(data, "resigned")
    if len(resigned) != players or not all(isinstance(r, bool) for r in resigned):
        raise CorruptState("resigned: one true/false per seat expected")
    everywhere = deck + [c for c in grid if c is not None] + [c for h in hands for c in h] + discards
    if Counter(everywhere) != Counter(deck_for(players)):
        raise CorruptState("cards: every card of the deck must be in exactly one place")
    pile = Counter(discards)
    pile.subtract(c for d in own_discards for c in d)
    if any(n < 0 for n in pile.values()):
        raise CorruptState("own_discards: a discarded card is not in the discard pile")
    pending = _pending(data.get("pending"), players, hands)
    if (phase == "discard") != (pending is not None):
        raise CorruptState("pending: Gourami discards must match the discard phase")
    if phase in ("split", "take") and not queue:
        raise CorruptState("queue: nobody is due to act")
    return TankState(
        players=players,
        goal=goal,
        first_start=first_start,
        round=rnd,
        phase=phase,
        deck=deck,
        grid=grid,
        groups=groups,
        made=made,
        queue=queue,
        take_queue=take_queue,
        hands=hands,
        discards=discards,
        own_discards=own_discards,
        resigned=list(resigned),
        pending=pending,
    )


def _pending(value: Any, players: int, hands: list[list[str]]) -> Pending | None:
    """Check the pending Gourami discards."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise CorruptState("pending: expected an object or null")
    seat = _int(value, "seat", 0, players - 1)
    left = _int(value, "left", 1, 10**6)
    protected = _cards(value.get("protected"), "pending.protected")
    if not set(protected) <= set(hands[seat]):
        raise CorruptState("pending: protected cards must be in the seat's hand")
    return Pending(seat, left, protected)
