"""Save and restore Hey, That's My Fish! states as JSON, reading schema 1 saves too, and check what comes back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import CorruptState
from engine.fish.board import DATA
from engine.fish.state import OVER, PLACEMENT, PLAY, FishState
from engine.fish.tables import SIZE


def dump(state: FishState, schema: int) -> dict[str, Any]:
    """Serialise the state with its schema version."""
    return {
        "schema": schema,
        "players": state.players,
        "seed": state.seed,
        "balanced": state.balanced,
        "tiles": list(state.tiles),
        "penguins": [list(p) for p in state.penguins],
        "to_place": list(state.to_place),
        "collected": [list(c) for c in state.collected],
        "resigned": list(state.resigned),
        "phase": state.phase,
        "current": state.current,
        "turn": state.turn,
        "moves": state.moves,
        "last": state.last,
    }


def load(data: Mapping[str, Any], schema_version: int, players_allowed: range) -> FishState:
    """Rebuild a state from `dump` output (schema 1 saves too), checking every field."""
    try:
        schema = data["schema"]
        if schema not in (1, schema_version):
            raise CorruptState(f"unknown schema {schema!r}")
        players = int(data["players"])
        state = FishState(
            players=players,
            seed=int(data["seed"]),
            balanced=bool(data["balanced"]),
            tiles=[int(t) for t in data["tiles"]],
            penguins=[[int(c) for c in p] for p in data["penguins"]],
            to_place=[int(n) for n in data["to_place"]],
            collected=[[int(f) for f in c] for c in data["collected"]],
            resigned=[bool(r) for r in data["resigned"]],
            phase=str(data["phase"]),
            current=int(data["current"]),
            turn=int(data["turn"]),
            last=dict(data["last"]) if data["last"] is not None else None,
            moves=int(data["moves"]) if schema == schema_version else 0,
        )
        if schema == 1:
            state.moves = _moves_before_schema_2(state)
    except CorruptState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptState(f"malformed fish state: {exc!r}") from exc
    ok = (
        players in players_allowed
        and len(state.tiles) == SIZE
        and all(0 <= t <= 3 for t in state.tiles)
        and len(state.penguins) == len(state.to_place) == len(state.collected) == len(state.resigned) == players
        and all(0 <= c < SIZE for p in state.penguins for c in p)
        and len(state.occupied()) == sum(len(p) for p in state.penguins)
        and state.phase in (PLACEMENT, PLAY, OVER)
        and (state.phase == OVER or 0 <= state.current < players)
        and 0 <= state.moves <= state.turn
    )
    if not ok:
        raise CorruptState("fish state fails its consistency checks")
    return state


def _moves_before_schema_2(state: FishState) -> int:
    """Work out the moves made in a schema-1 save, which counted placements and moves together in `turn`.

    Every seat still playing placed all its penguins but `to_place`; a seat that resigned is taken to have
    placed all of its own (exact unless it resigned during placement, where the count is only shown to players).
    """
    each = DATA["penguins_per_player"].get(str(state.players), 0)
    placed = sum(0 if state.resigned[s] else each - state.to_place[s] for s in range(state.players))
    placed += each * sum(state.resigned) if state.phase != PLACEMENT else 0
    return max(0, state.turn - placed)
