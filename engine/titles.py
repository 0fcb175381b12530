"""Name a game by its key in the current language: its published title there, else the English one."""

from __future__ import annotations

from engine.registry import get


def title(key: str) -> str:
    """Return the title of the game with this key ("fish" -> "Hey, danke für den Fisch!" in German)."""
    return get(key).title
