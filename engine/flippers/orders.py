"""Decide whether the order of a turn's remaining activations can change how the turn ends."""

from __future__ import annotations

from dataclasses import replace

from engine.flippers.powers import available, resolve
from engine.flippers.state import FlippersState

ORDER_BUDGET = 200
"""Positions looked at before giving up and letting the player choose (a turn rarely needs more than 30)."""

Outcome = tuple[object, ...]


def _table(state: FlippersState) -> FlippersState:
    """Return a copy of the parts of a state that activations change (the table, points and markers)."""
    return replace(
        state,
        cells=dict(state.cells),
        where=dict(state.where),
        facing=dict(state.facing),
        face=dict(state.face),
        stash=state.stash[:],
        engaged=state.engaged[:],
        activated=state.activated[:],
    )


def _outcome(state: FlippersState) -> Outcome:
    """Return what a player can tell apart at the end of a turn: the table, sides, facings, points and markers."""
    return (
        tuple(sorted(state.cells.items())),
        tuple(sorted(state.facing.items())),
        tuple(sorted(state.face.items())),
        tuple(state.stash),
        state.supply,
        tuple(state.engaged),
    )


def order_matters(state: FlippersState, seat: int) -> bool:
    """Return True unless every order of `seat`'s remaining activations ends the turn on the same table and points.

    Availability is re-checked after each activation, as in play, so an order that blocks a card counts as
    another ending. A turn with too many positions to look at is treated as one whose order matters.
    """
    ends: set[Outcome] = set()
    seen: set[tuple[Outcome, tuple[str, ...]]] = set()
    stack = [state]
    while stack:
        here = stack.pop()
        left = available(here, seat)
        if not left:
            ends.add(_outcome(here))
            if len(ends) > 1:
                return True
            continue
        for cid in left:
            after = _table(here)
            after.activated.append(cid)
            resolve(after, cid)
            key = (_outcome(after), tuple(sorted(after.activated)))
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > ORDER_BUDGET:
                return True
            stack.append(after)
    return False
