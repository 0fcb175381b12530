"""Find each game's table view: `table/views/<kind>.py` exposing `table_view(game, state, seat, names, last)`."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

TableView = Callable[[Any, Any, "int | None", list[str], Any], dict[str, Any]]

VIEWS: dict[str, str] = {"fish": "table.views.fish", "tank": "table.views.tank", "flippers": "table.views.flippers"}
"""Each game's view module; one not written yet is simply not offered on the table."""


def view_for(kind: str) -> TableView | None:
    """Return a game's `table_view`, or None when the game has no table."""
    module = module_for(kind)
    return None if module is None else module.table_view


def module_for(kind: str) -> Any:
    """Return a game's view module, or None when the game has none."""
    name = VIEWS.get(kind)
    if name is None:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def strings_for(kind: str) -> dict[str, str]:
    """Return the translated words a game's browser module reads by key (its module's `strings()`, if any)."""
    module = module_for(kind)
    words = getattr(module, "strings", None)
    return dict(words()) if words is not None else {}
