"""Find every game: the game packages under `engine/` and any named in ICE_FLOE_GAMES, found the same way.

A game package is an importable package whose `__init__` exposes `GAME` (its `engine.base.Game`), `COG` (the
discord.py extension that plays it in Discord: its slash commands and `ui.adapter.GameAdapter`) and `AI` (its
computer player, "module:Class" of an `ai.base.GameAI`). The names are strings, so the rules stay free of Discord.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from engine.base import Game

GAMES_ENV = "ICE_FLOE_GAMES"
"""Extra places to look for games: comma-separated importable packages (a game package, or a package of them)."""
BUILT_IN = "engine"


@dataclass(frozen=True)
class GamePackage:
    """Name where one game's parts live: its rules, its Discord cog and its computer player."""

    game: Game
    module: str
    """The package that exposes GAME, e.g. "engine.fish"."""
    cog: str
    """The discord.py extension module (with `setup`) holding the game's adapter and slash commands."""
    ai: str
    """The computer player as "module:Class"."""


def search_path(environ: Mapping[str, str] | None = None) -> list[str]:
    """Return the packages searched for games: `engine`, then each one ICE_FLOE_GAMES names."""
    extra = (os.environ if environ is None else environ).get(GAMES_ENV, "")
    return [BUILT_IN, *(name.strip() for name in extra.split(",") if name.strip())]


def _package(module: ModuleType) -> GamePackage | None:
    """Return the game a module describes, or None when it exposes no GAME."""
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        return None
    cog, ai = getattr(module, "COG", None), getattr(module, "AI", None)
    if not isinstance(cog, str) or not isinstance(ai, str) or ":" not in ai:
        raise LookupError(f"game package {module.__name__} must name COG (a module) and AI ('module:Class')")
    return GamePackage(game, module.__name__, cog, ai)


def find(root: str) -> list[GamePackage]:
    """Return the game `root` is, or else the games among its direct subpackages (by name)."""
    try:
        module = importlib.import_module(root)
    except ImportError as exc:
        raise LookupError(f"{GAMES_ENV} names {root!r}, which cannot be imported: {exc}") from exc
    own = _package(module)
    if own is not None:
        return [own]
    found = []
    for info in sorted(pkgutil.iter_modules(getattr(module, "__path__", [])), key=lambda i: i.name):
        if info.ispkg and (package := _package(importlib.import_module(f"{root}.{info.name}"))) is not None:
            found.append(package)
    return found


@cache
def packages() -> dict[str, GamePackage]:
    """Return every installed game package by game key, built-in ones first, each in a stable order."""
    found: dict[str, GamePackage] = {}
    for root in search_path():
        for package in find(root):
            other = found.get(package.game.key)
            if other is not None and other.module != package.module:
                raise LookupError(f"games {other.module} and {package.module} share the key {package.game.key!r}")
            found[package.game.key] = package
    return found


def games() -> dict[str, Game]:
    """Return every installed game by key, in a stable order."""
    return {key: package.game for key, package in packages().items()}


def get(key: str) -> Game:
    """Return the game with this key; raise KeyError with the known keys if none."""
    try:
        return packages()[key].game
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known: {', '.join(packages())}") from None


def package(key: str) -> GamePackage:
    """Return where the parts of the game with this key live; raise KeyError if there is no such game."""
    try:
        return packages()[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known: {', '.join(packages())}") from None


def forget() -> None:
    """Search again on the next call (after ICE_FLOE_GAMES changed)."""
    packages.cache_clear()
