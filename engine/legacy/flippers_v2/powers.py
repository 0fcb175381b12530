"""Resolve Explorer powers on the table and keep the Block markers where the rules put them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.base import Event
from engine.legacy.flippers_v2.cards import (
    CARDS,
    FOOD,
    LEADER,
    MINUS_POINTS,
    PLUS_POINTS,
    TEAMS,
    explorer_id,
    team_cards,
)
from engine.legacy.flippers_v2.state import DOWN, UP, FlippersState
from engine.legacy.flippers_v2.table import STEP, Cell, aims, label, mirror, rotate, step

BLOCK = "block"
_BLOCK_IDS = tuple(explorer_id(team, BLOCK) for team in range(len(TEAMS)))
_EXPLORERS = tuple(team_cards(team)[1:] for team in range(len(TEAMS)))
"""Each team's cards but its Leader, in card order."""
FLIPPED = {UP: DOWN, DOWN: UP, "A": "B", "B": "A"}


def _fizzle(seat: int, base: dict[str, Any], reason: str, target: str | None = None) -> list[Event]:
    """Return the event of a power that did nothing, saying why."""
    return [Event("fizzle", seat, {**base, "reason": reason, "target": target})]


def _flip(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Turn the target over toward the arrow, mirroring its orientation along that axis."""
    spot = step(cell, facing)
    target = state.cells.get(spot)
    if target is None:
        return _fizzle(seat, base, "empty")
    state.face[target] = FLIPPED[state.face[target]]
    state.facing[target] = mirror(state.facing[target], facing)
    data = {
        "target": target,
        "target_cell": label(spot),
        "face": state.face[target],
        "now": state.facing[target],
    }
    return [Event("flip", seat, {**base, **data})]


def _bump(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Push the unbroken line of cards starting at the target one cell on; cards past a gap stay."""
    line = []
    spot = step(cell, facing)
    while spot in state.cells:
        line.append(spot)
        spot = step(spot, facing)
    if not line:
        return _fizzle(seat, base, "empty")
    moved = []
    for spot in reversed(line):
        cid = state.cells.pop(spot)
        state.cells[step(spot, facing)] = cid
        state.where[cid] = step(spot, facing)
        moved.append(cid)
    data = {"count": len(line), "direction": facing, "from": label(line[0]), "moved": moved[::-1]}
    return [Event("bump", seat, {**base, **data})]


def _switch(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Swap the cards to the left and right; with one side empty the other card moves into it."""
    left, right = aims("switch", cell, facing)
    first, second = state.cells.get(left), state.cells.get(right)
    if first is None and second is None:
        return _fizzle(seat, base, "empty")
    state.swap(left, right)
    data = {"left": label(left), "right": label(right), "left_card": first, "right_card": second}
    return [Event("switch", seat, {**base, **data})]


def _replace(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Swap the Replace card with its target."""
    spot = step(cell, facing)
    target = state.cells.get(spot)
    if target is None:
        return _fizzle(seat, base, "empty")
    state.swap(cell, spot)
    return [Event("replace", seat, {**base, "target": target, "target_cell": label(spot)})]


def _turn(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Rotate the target a quarter turn clockwise."""
    spot = step(cell, facing)
    target = state.cells.get(spot)
    if target is None:
        return _fizzle(seat, base, "empty")
    state.facing[target] = rotate(state.facing[target])
    data = {"target": target, "target_cell": label(spot), "now": state.facing[target]}
    return [Event("turn", seat, {**base, **data})]


def _points_target(
    state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]
) -> tuple[int, dict[str, Any]] | list[Event]:
    """Return the team a Plus or Minus scores against with its event data, or the fizzle events."""
    spot = step(cell, facing)
    target = state.cells.get(spot)
    if target is None:
        return _fizzle(seat, base, "empty")
    team = CARDS[target].team
    if team is None or CARDS[target].kind == FOOD:
        return _fizzle(seat, base, "food", target)
    if state.face[target] != UP:
        return _fizzle(seat, base, "face_down", target)
    return team, {**base, "target": target, "target_cell": label(spot), "team": team}


def _plus(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Give the target's team points from the supply, as many as the supply still holds."""
    found = _points_target(state, seat, cell, facing, base)
    if isinstance(found, list):
        return found
    team, data = found
    amount = min(PLUS_POINTS, state.supply)
    state.supply -= amount
    state.stash[team] += amount
    return [Event("plus", seat, {**data, "amount": amount})]


def _minus(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Return the target team's points to the supply, never taking its stash below zero."""
    found = _points_target(state, seat, cell, facing, base)
    if isinstance(found, list):
        return found
    team, data = found
    amount = min(MINUS_POINTS, state.stash[team])
    state.stash[team] -= amount
    state.supply += amount
    return [Event("minus", seat, {**data, "amount": amount})]


def _block(state: FlippersState, seat: int, cell: Cell, facing: str, base: dict[str, Any]) -> list[Event]:
    """Place the team's Block marker on the cell the Block card aims at, even an empty one."""
    spot = step(cell, facing)
    state.engaged[seat] = True
    return [Event("block", seat, {**base, "target": state.cells.get(spot), "target_cell": label(spot)})]


_POWERS: dict[str, Callable[[FlippersState, int, Cell, str, dict[str, Any]], list[Event]]] = {
    "flip": _flip,
    "bump": _bump,
    "switch": _switch,
    "replace": _replace,
    "turn": _turn,
    "plus": _plus,
    "minus": _minus,
    BLOCK: _block,
}


def resolve(state: FlippersState, cid: str) -> list[Event]:
    """Apply the power of card `cid` (on the table, face up) and settle the Block markers.

    A card played into a cell a marker waits on is blocked at once: its power does not act.
    """
    card = CARDS[cid]
    assert card.team is not None and card.power is not None and card.power != LEADER
    cell = state.where[cid]
    facing = state.facing[cid]
    base = {"card": cid, "power": card.power, "cell": label(cell), "facing": facing}
    under = blocker(state, cid)
    if under is not None:
        return _fizzle(card.team, {**base, "marker": under}, "blocked") + settle_blocks(state)
    return _POWERS[card.power](state, card.team, cell, facing, base) + settle_blocks(state)


def marker_cell(state: FlippersState, team: int) -> Cell | None:
    """Return the cell a team's placed Block marker sits on (perhaps empty), or None when it is not placed."""
    if not state.engaged[team]:
        return None
    block = _BLOCK_IDS[team]
    return step(state.where[block], state.facing[block])


def _placed(state: FlippersState) -> list[tuple[int, Cell]]:
    """Return (team, cell) for every placed Block marker, in team order."""
    where, facing = state.where, state.facing
    out = []
    for team, on in enumerate(state.engaged):
        if on:
            block = _BLOCK_IDS[team]
            x, y = where[block]
            dx, dy = STEP[facing[block]]
            out.append((team, (x + dx, y + dy)))
    return out


def settle_blocks(state: FlippersState) -> list[Event]:
    """Lift each marker whose Block card is face down or is under an opponent's standing marker.

    A marker aimed at an empty cell stays. A marker that is not itself lifted lifts the marker of the
    opposing Block card under it; markers whose Block cards block each other in a ring are all lifted.
    """
    events: list[Event] = []
    if not any(state.engaged):
        return events

    def lift(team: int, reason: str) -> None:
        state.engaged[team] = False
        events.append(Event("lifted", team, {"team": team, "reason": reason}))

    live = []
    for team, on in enumerate(state.engaged):
        if not on:
            continue
        if state.face[_BLOCK_IDS[team]] != UP:
            lift(team, "face_down")
        else:
            live.append(team)
    edges: dict[int, int] = {}
    for team in live:
        spot = marker_cell(state, team)
        under_id = state.cells.get(spot) if spot is not None else None
        if under_id is None:
            continue
        under = CARDS[under_id]
        if under.power == BLOCK and under.team in live and state.opposed(team, under.team):
            edges[team] = under.team
    if not edges:
        return events
    waiting = Counter(edges.values())
    ready = [team for team in live if waiting[team] == 0]
    decided: set[int] = set()
    while ready:
        team = ready.pop()
        decided.add(team)
        victim = edges.get(team)
        if victim is None or victim in decided:
            continue
        decided.add(victim)
        lift(victim, "blocked")
        freed = edges.get(victim)
        if freed is not None:
            waiting[freed] -= 1
            if waiting[freed] == 0 and freed not in decided:
                ready.append(freed)
    for team in live:
        if team not in decided:
            lift(team, "mutual")
    return events


def markers(state: FlippersState) -> dict[Cell, list[int]]:
    """Return the teams whose placed markers sit on each cell."""
    out: dict[Cell, list[int]] = {}
    for team in range(state.players):
        cell = marker_cell(state, team)
        if cell is not None:
            out.setdefault(cell, []).append(team)
    return out


def blocker(state: FlippersState, cid: str) -> int | None:
    """Return the team whose marker sits on card `cid` (own, partner's or opponent's), or None when it is free."""
    cell = state.where.get(cid)
    if cell is None or True not in state.engaged:
        return None
    for team, spot in _placed(state):
        if spot == cell:
            return team
    return None


def marked_cells(state: FlippersState) -> set[Cell]:
    """Return every cell a placed marker sits on."""
    return {cell for _, cell in _placed(state)} if True in state.engaged else set()


def available(state: FlippersState, seat: int) -> list[str]:
    """Return the seat's cards it may still activate this turn, in card order: face up, unblocked, not yet used."""
    blocked = marked_cells(state)
    face, activated, where = state.face, state.activated, state.where
    return [
        cid for cid in _EXPLORERS[seat] if face.get(cid) == UP and cid not in activated and where[cid] not in blocked
    ]
