"""Hold a Flippers game state and turn it to and from JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.base import CorruptState
from engine.flippers.cards import (
    CARDS,
    EXPLORER,
    FOOD_IDS,
    FOOD_SIDES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SUPPLY_TOTAL,
    TEAM_UP_PLAYERS,
    explorer_id,
    team_cards,
)
from engine.flippers.table import DIRECTIONS, Cell

LEADERS, SETUP, PLAY, OVER = "leaders", "setup", "play", "over"
UP, DOWN = "up", "down"


@dataclass
class FlippersState:
    """Hold one game: the table, hands, decks, discards, stashes, supply and whose turn it is.

    Seat i plays team i of data/flippers.json. `face` is "up"/"down" for Explorers and the side
    shown ("A"/"B") for Food cards. `engaged[team]` is True while that team's Block marker is placed
    (on the cell its Block card aims at, empty or not). `first` is the seat drawn to play first; during
    the Leader placement phase `current` is the seat placing its Leader.
    """

    players: int
    teams_mode: bool
    phase: str
    cells: dict[Cell, str]
    where: dict[str, Cell]
    facing: dict[str, str]
    face: dict[str, str]
    hands: list[list[str]]
    decks: list[list[str]]
    discards: list[list[str]]
    unused_food: list[str]
    chosen: list[bool]
    resigned: list[bool]
    stash: list[int]
    supply: int
    engaged: list[bool]
    current: int = 0
    turn: int = 0
    played: str | None = None
    activated: list[str] = field(default_factory=list)
    first: int = 0
    seen: tuple[int, int, int, int] | None = None
    """The smallest box (first and last column, first and last row) holding every cell the table has used."""
    last_card: str | None = None
    """The card most recently put on the table (played, or a Leader placed), kept after its turn for pictures."""
    last_plays: list[dict[str, Any] | None] = field(default_factory=list)
    """Per seat, what everyone saw of its latest play (engine/flippers/recall.py), or None before its first."""

    def place(self, cid: str, cell: Cell, facing: str, face: str) -> None:
        """Put a card on an empty cell."""
        self.cells[cell] = cid
        self.where[cid] = cell
        self.facing[cid] = facing
        self.face[cid] = face

    def widen(self, cells: Iterable[Cell]) -> None:
        """Grow `seen` to hold `cells` (it never shrinks, so a picture of the table never narrows)."""
        box = self.seen
        for col, row in cells:
            if box is None:
                box = (col, col, row, row)
            elif not (box[0] <= col <= box[1] and box[2] <= row <= box[3]):
                box = (min(box[0], col), max(box[1], col), min(box[2], row), max(box[3], row))
        self.seen = box

    def swap(self, a: Cell, b: Cell) -> None:
        """Exchange the contents of two cells, either of which may be empty."""
        first, second = self.cells.pop(a, None), self.cells.pop(b, None)
        if first is not None:
            self.cells[b] = first
            self.where[first] = b
        if second is not None:
            self.cells[a] = second
            self.where[second] = a

    def is_face_up_explorer(self, cid: str | None) -> bool:
        """Return True for a face-up Explorer card on the table."""
        return cid is not None and self.face.get(cid) == UP

    def opposed(self, a: int, b: int) -> bool:
        """Return True when teams `a` and `b` play against each other (Team Up partners do not)."""
        return a != b and (not self.teams_mode or a % 2 != b % 2)

    def side(self, seat: int) -> int:
        """Return the side a seat scores for: its partnership in Team Up, else itself."""
        return seat % 2 if self.teams_mode else seat


def dump_state(state: FlippersState, schema: int) -> dict[str, Any]:
    """Return the state as JSON-safe data."""
    return {
        "schema": schema,
        "game": "flippers",
        "players": state.players,
        "teams_mode": state.teams_mode,
        "phase": state.phase,
        "table": [
            {"card": cid, "cell": list(cell), "facing": state.facing[cid], "face": state.face[cid]}
            for cell, cid in sorted(state.cells.items())
        ],
        "hands": [list(h) for h in state.hands],
        "decks": [list(d) for d in state.decks],
        "discards": [list(d) for d in state.discards],
        "unused_food": list(state.unused_food),
        "chosen": list(state.chosen),
        "resigned": list(state.resigned),
        "stash": list(state.stash),
        "supply": state.supply,
        "engaged": list(state.engaged),
        "current": state.current,
        "turn": state.turn,
        "played": state.played,
        "activated": list(state.activated),
        "first": state.first,
        "seen": list(state.seen) if state.seen is not None else None,
        "last_card": state.last_card,
        "last_plays": list(state.last_plays) or [None] * state.players,
    }


def _check(condition: bool, message: str) -> None:
    """Raise CorruptState with `message` unless `condition` holds."""
    if not condition:
        raise CorruptState(message)


def _int(value: Any, low: int, high: int | None = None) -> int:
    """Return `value` if it is an int within bounds, else raise CorruptState."""
    _check(type(value) is int and value >= low and (high is None or value <= high), f"bad number {value!r}")
    return value


def _bools(value: Any, players: int, what: str) -> list[bool]:
    """Return a list of `players` booleans, else raise CorruptState."""
    _check(isinstance(value, list) and len(value) == players, f"{what} must list every seat")
    _check(all(type(v) is bool for v in value), f"{what} must hold booleans")
    return list(value)


def _card_lists(value: Any, players: int, what: str) -> list[list[str]]:
    """Return one list of known card ids per seat, else raise CorruptState."""
    _check(isinstance(value, list) and len(value) == players, f"{what} must list every seat")
    out = []
    for cards in value:
        _check(isinstance(cards, list) and all(type(c) is str for c in cards), f"bad {what}")
        out.append(list(cards))
    return out


def migrate(data: Mapping[str, Any], schema: int) -> Mapping[str, Any]:
    """Return a save in the current schema, one step at a time.

    Schema 1 (Leaders dealt in a row, seat 1 first) gains `first` = 0 and plays on under the current rules,
    its table and markers kept. Schema 2 dealt the setup cards before the Leaders were placed: a game still
    placing Leaders puts each seat's drawn cards back on top of its deck, in order, so they are dealt after
    the last Leader as the rulebook orders (the same cards: nothing about the game changes but when they are
    seen). A game past Leader placement is untouched.
    """
    if not isinstance(data, Mapping):
        return data
    if data.get("schema") == 1 and schema >= 2:
        data = {**data, "schema": 2, "first": 0}
    if data.get("schema") == 2 and schema >= 3:
        data = {**data, "schema": 3}
        if data.get("phase") == LEADERS and isinstance(data.get("hands"), list) and isinstance(data.get("decks"), list):
            data["decks"] = [[*hand, *deck] for hand, deck in zip(data["hands"], data["decks"], strict=False)]
            data["hands"] = [[] for _ in data["hands"]]
    return data


def load_state(data: Mapping[str, Any], schema: int) -> FlippersState:
    """Rebuild and validate a state from `dump_state` output; raise CorruptState on anything malformed."""
    try:
        return _load(migrate(data, schema), schema)
    except CorruptState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise CorruptState(f"malformed Flippers state: {exc!r}") from exc


def _load(data: Mapping[str, Any], schema: int) -> FlippersState:
    """Do the work of `load_state`, letting lookup errors escape."""
    _check(isinstance(data, Mapping), "state must be an object")
    _check(data.get("schema") == schema, f"unsupported schema {data.get('schema')!r}")
    players = _int(data["players"], MIN_PLAYERS, MAX_PLAYERS)
    teams_mode = data["teams_mode"]
    _check(type(teams_mode) is bool and (not teams_mode or players in TEAM_UP_PLAYERS), "bad teams_mode")
    phase = data["phase"]
    _check(phase in (LEADERS, SETUP, PLAY, OVER), f"bad phase {phase!r}")
    cells: dict[Cell, str] = {}
    where: dict[str, Cell] = {}
    facing: dict[str, str] = {}
    face: dict[str, str] = {}
    _check(isinstance(data["table"], list), "table must be a list")
    for entry in data["table"]:
        cid, raw, turned, shown = entry["card"], entry["cell"], entry["facing"], entry["face"]
        cell = (raw[0], raw[1]) if type(raw) is list and len(raw) == 2 else None
        if (
            cid not in CARDS
            or cid in where
            or cell is None
            or type(cell[0]) is not int
            or type(cell[1]) is not int
            or cell in cells
            or turned not in DIRECTIONS
            or shown not in ((UP, DOWN) if CARDS[cid].kind == EXPLORER else FOOD_SIDES)
        ):
            raise CorruptState(f"bad table entry {entry!r}")
        cells[cell], where[cid], facing[cid], face[cid] = cid, cell, turned, shown
    hands = _card_lists(data["hands"], players, "hands")
    decks = _card_lists(data["decks"], players, "decks")
    discards = _card_lists(data["discards"], players, "discards")
    unused = data["unused_food"]
    _check(isinstance(unused, list) and all(c in FOOD_IDS for c in unused), "bad unused_food")
    seen = list(where) + list(unused) + [c for pile in (hands, decks, discards) for cards in pile for c in cards]
    resigned = _bools(data["resigned"], players, "resigned")
    expected = {c for seat in range(players) for c in team_cards(seat)} | set(FOOD_IDS)
    waiting = {team_cards(s)[0] for s in range(players) if phase in (LEADERS, OVER) or resigned[s]}
    _check(len(seen) == len(set(seen)) and set(seen) <= expected, "every card must be in exactly one place")
    _check(expected - set(seen) <= waiting, "every card must be in exactly one place")
    for seat in range(players):
        held = set(hands[seat] + decks[seat] + discards[seat])
        _check(held <= set(team_cards(seat)[1:]), "a seat holds a card that is not its own")
    stash = data["stash"]
    _check(isinstance(stash, list) and len(stash) == players, "stash must list every seat")
    stash = [_int(v, 0) for v in stash]
    supply = _int(data["supply"], 0)
    _check(sum(stash) + supply == SUPPLY_TOTAL, "points are not conserved")
    engaged = _bools(data["engaged"], players, "engaged")
    for team, on in enumerate(engaged):
        block = explorer_id(team, "block")
        if on:
            _check(block in where and face[block] == UP, "a Block marker is placed without its face-up card")
    current = _int(data["current"], 0, players - 1)
    played = data["played"]
    _check(played is None or played in where, "the played card is not on the table")
    activated = data["activated"]
    _check(isinstance(activated, list) and all(c in where for c in activated), "bad activated list")
    last_card = data.get("last_card")  # saves from before it have none: no card is named until the next play
    _check(last_card is None or last_card in where, "the last card put on the table is not on it")
    seen = data.get("seen")
    _check(
        seen is None or (isinstance(seen, list) and len(seen) == 4 and all(type(v) is int for v in seen)), "bad seen"
    )
    state = FlippersState(
        players=players,
        teams_mode=teams_mode,
        phase=phase,
        cells=cells,
        where=where,
        facing=facing,
        face=face,
        hands=hands,
        decks=decks,
        discards=discards,
        unused_food=list(unused),
        chosen=_bools(data["chosen"], players, "chosen"),
        resigned=resigned,
        stash=stash,
        supply=supply,
        engaged=engaged,
        current=current,
        turn=_int(data["turn"], 0),
        played=played,
        activated=list(activated),
        first=_int(data["first"], 0, players - 1),
        seen=None if seen is None else (seen[0], seen[1], seen[2], seen[3]),
        last_card=last_card,
    )
    state.widen(cells)  # saves from before `seen` start from the table as it stands
    return state
