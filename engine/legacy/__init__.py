"""Keep the rules every saved game was played under, so old games replay and score as they were decided.

A game's rules version is the state schema its engine wrote when it was played (`Game.schema_version`). When a
game's rules change in a way that alters replays or scores, its engine bumps `schema_version` and a frozen copy
of the previous package goes here (`engine/legacy/<key>_v<N>/`, exposing `RULES`), listed in FROZEN. Versions
whose rules did not change (only the saved form did) are listed in SAME_RULES and use today's engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import Any

from engine.base import Game
from engine.registry import get

FROZEN: dict[tuple[str, int], str] = {
    ("flippers", 1): "engine.legacy.flippers_v1",
    ("flippers", 2): "engine.legacy.flippers_v2",
}
"""(game key, rules version) -> the module of a frozen copy of those rules."""
SAME_RULES: frozenset[tuple[str, int]] = frozenset({("fish", 1)})
"""(game key, rules version) whose saves today's engine loads and plays exactly as they were played."""


class UnknownRules(LookupError):
    """Raise when no rules are kept for a version a game was saved under."""


@cache
def rules_for(key: str, version: int | None) -> Game:
    """Return the rules of game `key` as they were at `version` (None or today's: the current engine)."""
    current = get(key)
    if version is None or version == current.schema_version or (key, version) in SAME_RULES:
        return current
    module = FROZEN.get((key, version))
    if module is None:
        raise UnknownRules(f"no rules kept for {key} version {version}")
    rules: Game = importlib.import_module(module).RULES
    if rules.key != key or rules.schema_version != version:
        raise UnknownRules(f"{module} holds {rules.key} version {rules.schema_version}, not {key} version {version}")
    return rules


def saved_version(data: Mapping[str, Any] | None) -> int | None:
    """Return the rules version a saved state was written under, or None when it does not say."""
    if not isinstance(data, Mapping):
        return None
    schema = data.get("schema")
    return schema if type(schema) is int else None


def rules_of_save(key: str, data: Mapping[str, Any] | None) -> Game:
    """Return the rules a saved state was written under (today's when it does not say, or none are kept)."""
    try:
        return rules_for(key, saved_version(data))
    except UnknownRules:
        return get(key)
