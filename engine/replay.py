"""Replay a saved game from its seed and action log, yielding the state after every step."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.base import Game


def replay(
    game: Game, players: int, options: Mapping[str, Any], seed: int, log: Sequence[Mapping[str, Any]]
) -> Iterator[Any]:
    """Yield the opening state, then the state after each logged action (each entry has "seat" and "action")."""
    state = game.new_game(players, options, seed)
    yield state
    for entry in log:
        action = entry["action"]
        if action.get("type") == "resign":
            game.resign(state, entry["seat"])
        else:
            game.apply(state, entry["seat"], action)
        yield state
