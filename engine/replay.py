"""Replay a saved game from its seed and action log, yielding the state after every step."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.base import Game
from engine.takeback import effective_log


def replay(
    game: Game, players: int, options: Mapping[str, Any], seed: int, log: Sequence[Mapping[str, Any]]
) -> Iterator[Any]:
    """Yield the opening state, then the state after each logged action (each entry has "seat" and "action").

    Takebacks in the log are followed: the moves they undid are left out, and so are the takebacks themselves.
    """
    state = game.new_game(players, options, seed)
    yield state
    for entry in effective_log(log):
        action = entry["action"]
        if action.get("type") == "resign":
            game.resign(state, entry["seat"])
        else:
            game.apply(state, entry["seat"], action)
        yield state
