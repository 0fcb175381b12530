"""Load the Flippers numbers from data/flippers.json and build the card catalogue."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from i18n import pgettext
from i18n.extractors import POWER_NAME

DATA: dict[str, Any] = json.loads((Path(__file__).resolve().parents[2] / "data" / "flippers.json").read_text())

EXPLORER, FOOD = "explorer", "food"
LEADER: str = DATA["leader_power"]
POWER_NAMES: dict[str, str] = {p["key"]: p["name"] for p in DATA["powers"]}
POWER_TEXT: dict[str, str] = {p["key"]: p["text"] for p in DATA["powers"]}
TEAMS: list[dict[str, str]] = DATA["teams"]
STARTING_STASH: int = DATA["starting_stash"]
SUPPLY_TOTAL: int = sum(t["points"] * t["count"] for t in DATA["supply_tokens"])
HAND_SIZE: int = DATA["hand_size"]
SETUP_DRAW: int = DATA["setup_draw"]
PLUS_POINTS: int = DATA["plus_points"]
MINUS_POINTS: int = DATA["minus_points"]
LEADER_BONUS: int = DATA["leader_bonus"]
TEAM_UP_PLAYERS: tuple[int, ...] = tuple(DATA["team_up_players"])
LAYOUT: dict[str, Any] = DATA["layout"]
MIN_PLAYERS = min(int(n) for n in DATA["by_players"])
MAX_PLAYERS = min(max(int(n) for n in DATA["by_players"]), len(TEAMS))


@dataclass(frozen=True)
class Card:
    """Describe one physical card: an Explorer of a team with a power, or a Food card."""

    id: str
    name: str
    kind: str
    team: int | None = None
    power: str | None = None
    sides: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    """Food only: (side, ((direction, points), ...)) with directions in the card's own frame facing N."""

    @property
    def power_name(self) -> str:
        """Return the printed name of the power in the current language ("" for Food cards)."""
        english = POWER_NAMES.get(self.power or "", "")
        return pgettext(POWER_NAME, english) if english else ""

    def arrows(self, side: str) -> tuple[tuple[str, int], ...]:
        """Return a Food card side's arrows in its own frame."""
        return dict(self.sides)[side]


def explorer_id(team: int, power: str) -> str:
    """Return the id of a team's card with `power`, e.g. "c-bump"."""
    return f"{TEAMS[team]['letter'].lower()}-{power}"


def _catalogue() -> dict[str, Card]:
    """Build every card the box holds, keyed by id."""
    cards: dict[str, Card] = {}
    for team, info in enumerate(TEAMS):
        for power in POWER_NAMES:
            cid = explorer_id(team, power)
            cards[cid] = Card(cid, f"{info['short']} {POWER_NAMES[power]}", EXPLORER, team, power)
    for food in DATA["food_cards"]:
        cid = f"food-{food['number']}"
        sides = tuple((side, tuple(arrows.items())) for side, arrows in food["sides"].items())
        cards[cid] = Card(cid, food["name"], FOOD, sides=sides)
    return cards


CARDS: dict[str, Card] = _catalogue()
FOOD_IDS: tuple[str, ...] = tuple(cid for cid, card in CARDS.items() if card.kind == FOOD)
FOOD_SIDES: tuple[str, ...] = tuple(side for side, _ in CARDS[FOOD_IDS[0]].sides)


_TEAM_CARDS = tuple(tuple(explorer_id(team, power) for power in POWER_NAMES) for team in range(len(TEAMS)))


def team_cards(team: int) -> tuple[str, ...]:
    """Return a team's card ids in data order, Leader first."""
    return _TEAM_CARDS[team]


def setup_rule(players: int) -> tuple[int, int]:
    """Return (cards each player discards, Food cards used) for a player count."""
    row = DATA["by_players"][str(players)]
    return row["discard"], row["food_cards"]
