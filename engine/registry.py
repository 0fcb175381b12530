"""Find every game: each package under `engine/` exposes its rules as `GAME`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from engine.base import Game


@cache
def games() -> dict[str, Game]:
    """Return every installed game by key, in a stable order."""
    import engine

    found: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(engine.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"engine.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.key] = game
    return found


def get(key: str) -> Game:
    """Return the game with this key; raise KeyError with the known keys if none."""
    try:
        return games()[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known: {', '.join(games())}") from None
