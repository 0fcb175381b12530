"""Reach positions of every game by seeded random play, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.registry import get

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("fish", 2, {}),
    ("fish", 3, {"balanced": True}),
    ("fish", 4, {}),
    ("tank", 2, {}),
    ("tank", 3, {}),
    ("tank", 4, {}),
    ("tank", 5, {}),
    ("flippers", 2, {}),
    ("flippers", 3, {}),
    ("flippers", 4, {"teams": True}),
    ("flippers", 5, {}),
    ("flippers", 6, {}),
    ("flippers", 6, {"teams": True}),
]
"""Every game at every player count, with the lobby options switched on somewhere."""


def config_id(config: tuple[str, int, dict[str, Any]]) -> str:
    """Return a readable test id such as "flippers-4-teams"."""
    key, players, options = config
    return "-".join([key, str(players), *sorted(k for k, on in options.items() if on)])


def positions(key: str, players: int, options: dict[str, Any], seed: int, every: int) -> Iterator[tuple[Any, int]]:
    """Yield (state, seat) every `every` actions of a random game, for each seat then due to act."""
    game = get(key)
    rng = random.Random(seed)
    state = game.new_game(players, options, seed)
    step = 0
    while not game.is_over(state):
        if step % every == 0:
            for seat in game.to_act(state):
                yield state, seat
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        step += 1
