"""Build the aquarium cards: stable ids, display names, and the deck for each player count."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.tank.data import RULES, Rules


@dataclass(frozen=True)
class Card:
    """Hold one physical aquarium card."""

    id: str
    kind: str
    marking: str
    min_players: int
    value: int | None
    name: str

    def to_json(self) -> dict[str, Any]:
        """Return the card as JSON-safe data for views."""
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "value": self.value,
            "mark": self.marking,
        }


def build_catalogue(rules: Rules) -> dict[str, Card]:
    """Return every card of the full 5-player box by id, in a stable order."""
    catalogue: dict[str, Card] = {}
    for kind in rules.kinds:
        total = sum(kind.cards.values())
        for marking in rules.markings:
            count = kind.cards.get(marking.key, 0)
            values = kind.values.get(marking.key)
            if values is not None and len(values) != count:
                raise ValueError(f"{kind.key} {marking.key}: {count} cards but {len(values)} printed values")
            for n in range(1, count + 1):
                if total == 1:
                    card_id = kind.key
                elif marking.label:
                    card_id = f"{kind.key}-{marking.label}-{n}"
                else:
                    card_id = f"{kind.key}-{n}"
                value = values[n - 1] if values is not None else None
                name = f"{kind.name} {value}" if value is not None else kind.name
                catalogue[card_id] = Card(card_id, kind.key, marking.label, marking.min_players, value, name)
    return catalogue


CARDS: dict[str, Card] = build_catalogue(RULES)


def deck_for(players: int) -> list[str]:
    """Return the ids of the cards used with this many players, unshuffled."""
    return [c.id for c in CARDS.values() if c.min_players <= players]


@cache
def kinds_in_play(players: int) -> tuple[str, ...]:
    """Return the fish types that have cards in a game of this size, in rulebook order."""
    present = {CARDS[c].kind for c in deck_for(players)}
    return tuple(k.key for k in RULES.fish if k.key in present)


FISH_CARDS: frozenset[str] = frozenset(c.id for c in CARDS.values() if RULES.kind(c.kind).is_fish)


def is_fish(card_id: str) -> bool:
    """Return True for fish cards (everything but the Treasure Chest)."""
    return card_id in FISH_CARDS


_FACES: dict[str, dict[str, Any]] = {c.id: c.to_json() for c in CARDS.values()}


def card_json(card_id: str) -> dict[str, Any]:
    """Return a card's public face as JSON-safe data (a fresh dict the caller may keep)."""
    return dict(_FACES[card_id])
