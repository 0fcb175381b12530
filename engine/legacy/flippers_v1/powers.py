"""Resolve Explorer powers on the table and keep the Block markers where the rules put them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.base import Event
from engine.legacy.flippers_v1.cards import (
    CARDS,
    FOOD,
    LEADER,
    MINUS_POINTS,
    PLUS_POINTS,
    TEAMS,
    explorer_id,
    team_cards,
)
from engine.legacy.flippers_v1.state import DOWN, UP, FlippersState
from engine.legacy.flippers_v1.table import Cell, aims, label, mirror, rotate, step

BLOCK = "block"
_BLOCK_IDS = tuple(explorer_id(team, BLOCK) for team in range(len(TEAMS)))
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
    """Place the team's Block marker on the target card."""
    spot = step(cell, facing)
    target = state.cells.get(spot)
    if target is None:
        return _fizzle(seat, base, "empty")
    state.engaged[seat] = True
    return [Event("block", seat, {**base, "target": target, "target_cell": label(spot)})]


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
    """Apply the power of card `cid` (on the table, face up) and settle the Block markers."""
    card = CARDS[cid]
    assert card.team is not None and card.power is not None and card.power != LEADER
    cell = state.where[cid]
    facing = state.facing[cid]
    base = {"card": cid, "power": card.power, "cell": label(cell), "facing": facing}
    return _POWERS[card.power](state, card.team, cell, facing, base) + settle_blocks(state)


def marker_cell(state: FlippersState, team: int) -> Cell | None:
    """Return the cell a team's placed Block marker sits on, or None when it is not placed."""
    if not state.engaged[team]:
        return None
    block = _BLOCK_IDS[team]
    return step(state.where[block], state.facing[block])


def settle_blocks(state: FlippersState) -> list[Event]:
    """Lift each marker whose Block card is face down, aims at an empty cell or is under an opponent's marker.

    A marker that is not itself lifted lifts the marker of the opposing Block card under it; markers
    whose Block cards block each other in a ring are all lifted.
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
        elif marker_cell(state, team) not in state.cells:
            lift(team, "no_target")
        else:
            live.append(team)
    edges: dict[int, int] = {}
    for team in live:
        under = CARDS[state.cells[marker_cell(state, team)]]
        if under.power == BLOCK and under.team in live and state.opposed(team, under.team):
            edges[team] = under.team
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
    """Return the opposing team whose marker sits on card `cid`, or None when it is free."""
    team, cell = CARDS[cid].team, state.where.get(cid)
    if cell is None:
        return None
    for other in range(state.players):
        if team is not None and state.opposed(other, team) and marker_cell(state, other) == cell:
            return other
    return None


def available(state: FlippersState, seat: int) -> list[str]:
    """Return the seat's cards it may still activate this turn, in card order."""
    blocked = {marker_cell(state, t) for t in range(state.players) if state.opposed(t, seat)}
    return [
        cid
        for cid in team_cards(seat)[1:]
        if state.face.get(cid) == UP and cid not in state.activated and state.where[cid] not in blocked
    ]
