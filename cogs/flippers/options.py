"""List what a Flippers player may pick now: hand cards, cells, facings, Leader cells, activations, discards."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cogs.flippers.words import NO_DISCARD, _power, aim_words, beside_words, facing_title, facing_word
from engine.flippers import GAME
from engine.flippers.cards import CARDS, FOOD, POWER_NAMES, explorer_id, setup_rule
from engine.flippers.game import leader_spots, open_cells
from engine.flippers.names import card_name, find_card, power_name, power_text
from engine.flippers.powers import available
from engine.flippers.state import PLAY, SETUP, FlippersState
from engine.flippers.table import DIRECTIONS, Cell, label, step
from i18n import _
from ui.components import MAX_OPTIONS
from ui.errors import UserError
from ui.text import LABEL, fit_first

NEAR_CELLS = MAX_OPTIONS // len(DIRECTIONS)
"""Open cells offered with their four facings in one select (6 x 4 = 24 options)."""


def power_key(typed: str) -> str | None:
    """Return the power a typed name means, in English or in the current language ("flip", "Wende" -> "flip")."""
    wanted = typed.strip().lower()
    for key, name in POWER_NAMES.items():
        if wanted in (name.lower(), power_name(key).lower()):
            return key
    return None


Option = tuple[str, str, str]


def can_play(state: FlippersState, seat: int | None) -> bool:
    """Return True when `seat` is to play a card from its hand now."""
    return (
        seat is not None
        and state.phase == PLAY
        and state.current == seat
        and state.played is None
        and bool(state.hands[seat])
    )


def must_discard(state: FlippersState, seat: int | None) -> int:
    """Return how many cards `seat` still has to discard in setup (0 when none)."""
    if seat is None or state.phase != SETUP or state.chosen[seat] or state.resigned[seat]:
        return 0
    return setup_rule(state.players)[0]


def to_activate(state: FlippersState, seat: int | None) -> list[str]:
    """Return the table cards `seat` must still activate this turn (empty when it is not its turn)."""
    if seat is None or state.phase != PLAY or state.current != seat or state.played is None:
        return []
    return available(state, seat)


def hand_options(state: FlippersState, seat: int) -> list[Option]:
    """Return (power, card id, power text) for each card in the seat's hand."""
    return [(_power(cid), cid, power_text(CARDS[cid].power)) for cid in state.hands[seat]]


def cell_options(state: FlippersState, names: Sequence[str], row: int | None = None) -> list[Option]:
    """Return (label, label, what it touches) for each open cell, optionally on one row only."""
    return [
        (label(cell), label(cell), beside_words(state, cell, names))
        for cell in open_cells(state)
        if row is None or cell[1] == row
    ]


def nearest_cells(state: FlippersState) -> list[Cell]:
    """Return the open cells, those nearest a Food card first (ties in reading order)."""
    foods = [cell for cid, cell in state.where.items() if CARDS[cid].kind == FOOD]

    def distance(cell: Cell) -> int:
        return min((abs(cell[0] - f[0]) + abs(cell[1] - f[1]) for f in foods), default=0)

    return sorted(open_cells(state), key=lambda c: (distance(c), c[1], c[0]))


def spot_options(state: FlippersState, cid: str, cells: Sequence[Cell], names: Sequence[str]) -> list[Option]:
    """Return ("N14 facing north", "N14:N", what it would aim at) for each cell and facing."""
    return [
        (_facing(label(cell), facing_word(d)), f"{label(cell)}:{d}", aim_words(state, cid, cell, d, names))
        for cell in cells
        for d in DIRECTIONS
    ]


def leader_options(state: FlippersState, names: Sequence[str]) -> list[Option]:
    """Return (cell and the Food it faces, cell, what it touches) for each cell a Leader may take now."""
    options = []
    for cell, facing in leader_spots(state):
        food = state.cells[step(cell, facing)]
        # TRANSLATORS: a cell where a Leader may go and the Food card it would face, e.g. "N14 facing Krill".
        head = _("{cell} facing {food}", cell=label(cell), food=card_name(food))
        options.append((head, label(cell), _leader_detail(state, cell, facing, names, LABEL)))
    return options


def _leader_detail(state: FlippersState, cell: Cell, facing: str, names: Sequence[str], room: int) -> str:
    """Say what a Leader cell touches and which way the Leader faces, in `room` characters: the facing always."""
    direction = facing_word(facing)
    # TRANSLATORS: a Leader cell in a menu, e.g. "beside Krill (N15), facing north".
    frame = _("{beside}, facing {direction}", beside="", direction=direction)
    beside = beside_words(state, cell, names, room - len(frame))
    return _("{beside}, facing {direction}", beside=beside, direction=direction)


def _choice(head: str, detail: Callable[[int], str], joined: str = "{head} ({detail})") -> str:
    """Return an autocomplete choice: `head` whole, then its detail worded to fit the room Discord leaves."""
    room = LABEL - len(joined.format(head=head, detail=""))
    return joined.format(head=head, detail=detail(room))


def leader_choices(state: FlippersState, names: Sequence[str]) -> list[tuple[str, str]]:
    """Return (label, cell) for each cell a Leader may take now: the cell and its Food, then its facing, then more."""
    return [
        (_choice(head, lambda room, spot=spot: _leader_detail(state, spot[0], spot[1], names, room)), cell)
        for (head, cell, _detail), spot in zip(leader_options(state, names), leader_spots(state), strict=True)
    ]


def card_choices(state: FlippersState, seat: int) -> list[tuple[str, str]]:
    """Return (label, card id) for each card of the seat's hand: its power, then what the power does if it fits."""
    return [(fit_first([f"{power}: {text}", power], LABEL), cid) for power, cid, text in hand_options(state, seat)]


def cell_choices(state: FlippersState, names: Sequence[str]) -> list[tuple[str, str]]:
    """Return (label, cell) for each open cell: the cell, then the cards it touches as far as they fit."""
    return [
        (_choice(label(cell), lambda room, cell=cell: beside_words(state, cell, names, room)), label(cell))
        for cell in open_cells(state)
    ]


def facing_choices(state: FlippersState, cid: str, cell: Cell, names: Sequence[str]) -> list[tuple[str, str]]:
    """Return (label, N/E/S/W) for the four facings: the direction, then what it would aim at as far as it fits."""
    return [
        (_choice(facing_title(d), lambda room, d=d: aim_words(state, cid, cell, d, names, room), "{head}: {detail}"), d)
        for d in DIRECTIONS
    ]


def activate_choices(state: FlippersState, seat: int | None, names: Sequence[str]) -> list[tuple[str, str]]:
    """Return (label, card id) for each card still to activate: the card and cell, then what it aims at."""
    return [
        (_choice(head, lambda room, cid=cid: _aim_now(state, cid, names, room), "{head}: {detail}"), cid)
        for head, cid, _aim in activate_options(state, seat, names)
    ]


def _aim_now(state: FlippersState, cid: str, names: Sequence[str], room: int) -> str:
    """Say what a card on the table aims at as it lies, in `room` characters."""
    return aim_words(state, cid, state.where[cid], state.facing[cid], names, room)


def facing_options(state: FlippersState, cid: str, cell: Cell, names: Sequence[str]) -> list[Option]:
    """Return (direction word, N/E/S/W, what it would aim at) for the four facings."""
    return [(facing_title(d), d, aim_words(state, cid, cell, d, names)) for d in DIRECTIONS]


def activate_options(state: FlippersState, seat: int | None, names: Sequence[str]) -> list[Option]:
    """Return (power and cell, card id, what it aims at) for each card still to activate."""
    options = []
    for cid in to_activate(state, seat):
        cell = state.where[cid]
        # TRANSLATORS: a card still to activate, in a menu, e.g. "Flip at N14".
        where = _("{power} at {cell}", power=_power(cid), cell=label(cell))
        options.append((where, cid, aim_words(state, cid, cell, state.facing[cid], names)))
    return options


def _facing(where: str, direction: str) -> str:
    """Return a cell with the way a card on it faces: "N14 facing north"."""
    # TRANSLATORS: a cell and the compass direction a card on it would point to, e.g. "N14 facing north".
    return _("{cell} facing {direction}", cell=where, direction=direction)


def discard_options(state: FlippersState, seat: int | None) -> list[tuple[str, str]]:
    """Return ("Flip + Bump", "c-flip,c-bump") for every legal setup discard of `seat`."""
    if not must_discard(state, seat):
        return []
    assert seat is not None
    combos = [a["cards"] for a in GAME.legal_actions(state, seat) if a["type"] == "discard"]
    return [(" + ".join(_power(c) for c in combo), ",".join(combo)) for combo in combos]


def hand_card(state: FlippersState, seat: int | None, ref: str) -> str:
    """Return the id of the seat's hand card `ref` names (id, name or power), or `ref` unchanged."""
    text = ref.strip()
    if seat is None:
        return text
    power = power_key(text)
    cid = explorer_id(seat, power) if power else find_card(text)
    return cid if cid in state.hands[seat] else text


def table_card(state: FlippersState, seat: int | None, ref: str) -> str:
    """Return the id of the seat's table card `ref` names by power, or `ref` unchanged (id, name or cell)."""
    text = ref.strip()
    power = power_key(text)
    if seat is None or power is None:
        return text
    return explorer_id(seat, power)


def discard_refs(state: FlippersState, seat: int | None, text: str) -> list[str]:
    """Split a comma-separated list of cards and resolve each against the seat's hand; refuse an empty list."""
    refs = [hand_card(state, seat, part) for part in text.split(",") if part.strip()]
    if not refs:
        raise UserError(_(NO_DISCARD))
    return refs
