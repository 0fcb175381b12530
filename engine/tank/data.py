"""Load the numbers of 10 Gallon Tank from data/tank.json once, at import."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_PATH = Path(__file__).resolve().parents[2] / "data" / "tank.json"


@dataclass(frozen=True)
class Setup:
    """Hold what depends on the player count: rounds, grid side and split/draft passes."""

    rounds: int
    grid: int
    passes: int


@dataclass(frozen=True)
class Marking:
    """Hold one player-count marking printed on cards."""

    key: str
    label: str
    min_players: int


@dataclass(frozen=True)
class CardKind:
    """Hold one kind of aquarium card: a fish type or the Treasure Chest."""

    key: str
    name: str
    plural: str
    is_fish: bool
    cards: dict[str, int]
    scoring: dict[str, Any]
    values: dict[str, list[int]]
    discards: int


@dataclass(frozen=True)
class Goal:
    """Hold one goal card."""

    key: str
    name: str
    kind: str
    text: str
    minimum: int
    template: str
    """The text as written in the data, with its `{min}` placeholder (the msgid translators see)."""


@dataclass(frozen=True)
class Rules:
    """Hold every number of the game."""

    title: str
    min_players: int
    max_players: int
    setups: dict[int, Setup]
    markings: tuple[Marking, ...]
    kinds: tuple[CardKind, ...]
    chest_points: int
    goal_points: int
    goals: tuple[Goal, ...]

    @property
    def fish(self) -> tuple[CardKind, ...]:
        """Return the fish types, in rulebook order."""
        return tuple(k for k in self.kinds if k.is_fish)

    def kind(self, key: str) -> CardKind:
        """Return the card kind with this key."""
        for k in self.kinds:
            if k.key == key:
                return k
        raise KeyError(key)

    def goal(self, key: str) -> Goal:
        """Return the goal card with this key."""
        for g in self.goals:
            if g.key == key:
                return g
        raise KeyError(key)

    def setup(self, players: int) -> Setup:
        """Return the setup for a player count."""
        return self.setups[players]


def parse(raw: dict[str, Any]) -> Rules:
    """Turn the JSON document into typed rules."""
    kinds = [
        CardKind(
            key=f["key"],
            name=f["name"],
            plural=f["plural"],
            is_fish=True,
            cards=dict(f["cards"]),
            scoring=dict(f["scoring"]),
            values={m: list(v) for m, v in f.get("values", {}).items()},
            discards=int(f.get("discards", 0)),
        )
        for f in raw["fish"]
    ]
    chest = raw["chest"]
    kinds.append(
        CardKind(
            key=chest["key"],
            name=chest["name"],
            plural=chest["name"],
            is_fish=False,
            cards=dict(chest["cards"]),
            scoring={"kind": "each", "points": chest["points"]},
            values={},
            discards=0,
        )
    )
    goals = tuple(
        Goal(
            key=g["key"],
            name=g["name"],
            kind=g["kind"],
            text=g["text"].format(min=g.get("min", 0)),
            minimum=int(g.get("min", 0)),
            template=g["text"],
        )
        for g in raw["goals"]
    )
    return Rules(
        title=raw["title"],
        min_players=raw["players"]["min"],
        max_players=raw["players"]["max"],
        setups={int(n): Setup(s["rounds"], s["grid"], s["passes"]) for n, s in raw["setup"].items()},
        markings=tuple(Marking(m["key"], m["label"], m["min_players"]) for m in raw["markings"]),
        kinds=tuple(kinds),
        chest_points=int(chest["points"]),
        goal_points=int(raw["goal_points"]),
        goals=goals,
    )


RULES = parse(json.loads(DATA_PATH.read_text(encoding="utf-8")))
