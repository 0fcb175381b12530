"""Score 10 Gallon Tank aquariums fast from per-kind tallies, by the same data-driven rules as the engine."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.tank.cards import CARDS, kinds_in_play
from engine.tank.data import RULES
from engine.tank.scoring import majority_points

KINDS = RULES.kinds
WIDTH = len(KINDS)
INDEX = {kind.key: i for i, kind in enumerate(KINDS)}
CARD_INDEX = {cid: INDEX[card.kind] for cid, card in CARDS.items()}
CARD_VALUE = {cid: card.value or 0 for cid, card in CARDS.items()}
FISH = tuple(i for i, kind in enumerate(KINDS) if kind.is_fish)
PARTIAL_SET_SHARE = 0.3
"""Credit for each card of an unfinished set, as a share of what a finished set pays per card."""

Tally = list[int]
"""Cards held per kind (first WIDTH entries), then the printed values held per kind."""


def tally(cards: Iterable[str]) -> Tally:
    """Return the tally of some cards."""
    out = [0] * (2 * WIDTH)
    for cid in cards:
        i = CARD_INDEX[cid]
        out[i] += 1
        out[WIDTH + i] += CARD_VALUE[cid]
    return out


def merged(a: Tally, b: Tally) -> Tally:
    """Return the tally of two piles together."""
    return [x + y for x, y in zip(a, b, strict=True)]


def _kind_points(i: int, n: int, partial: bool) -> float:
    """Return the points of `n` cards of kind `i` in one aquarium, for kinds that score by count alone."""
    rule = KINDS[i].scoring
    match rule["kind"]:
        case "each":
            return n * rule["points"]
        case "parity":
            return n * (rule["odd_each"] if n % 2 else rule["even_each"])
        case "sets":
            size = rule["size"]
            points = (n // size) * rule["points"]
            return points + (PARTIAL_SET_SHARE * rule["points"] / size * (n % size) if partial else 0)
        case "table":
            table = rule["table"]
            return table[min(n, len(table) - 1)]
    raise ValueError(f"{KINDS[i].key}: scoring kind {rule['kind']!r} does not go by count alone")


BY_COUNT = tuple(i for i, kind in enumerate(KINDS) if kind.scoring["kind"] in ("each", "parity", "sets", "table"))
PRINTED = tuple(WIDTH + i for i, kind in enumerate(KINDS) if kind.scoring["kind"] == "printed")
MAJORITY = tuple(i for i, kind in enumerate(KINDS) if kind.scoring["kind"] == "majority")
MOST = len(CARDS)
POINTS = {
    partial: tuple((i, tuple(_kind_points(i, n, partial) for n in range(MOST + 1))) for i in BY_COUNT)
    for partial in (False, True)
}
"""Per kind scored by count: its points for 0..MOST cards, without and with part credit for unfinished sets."""


class Scorer:
    """Score every aquarium of one game: its goal card, player count and the seats still competing."""

    def __init__(self, goal: str, players: int, competing: Sequence[bool]) -> None:
        """Fix the game's goal, size and competing seats."""
        self.goal = RULES.goal(goal)
        self.competing = list(competing)
        self.in_play = tuple(INDEX[k] for k in kinds_in_play(players))

    def goal_met(self, t: Tally) -> bool:
        """Return True when a tally fulfils the goal card."""
        match self.goal.kind:
            case "every_type":
                return all(t[i] > 0 for i in self.in_play)
            case "one_type":
                return max(t[i] for i in FISH) >= self.goal.minimum
            case "fish_cards":
                return sum(t[i] for i in FISH) >= self.goal.minimum
        raise ValueError(f"unknown goal kind {self.goal.kind!r}")

    def plain(self, t: Tally, partial: bool = False) -> float:
        """Return one aquarium's points but for majority kinds; with `partial`, unfinished sets earn part credit."""
        points = sum([row[t[i]] for i, row in POINTS[partial]]) + sum([t[i] for i in PRINTED])
        return float(points + RULES.goal_points if self.goal_met(t) else points)

    def majorities(self, tallies: Sequence[Tally]) -> list[float]:
        """Return every seat's points from the majority kinds."""
        out = [0.0] * len(tallies)
        for i in MAJORITY:
            amounts = [t[i] if self.competing[s] else 0 for s, t in enumerate(tallies)]
            for s, points in enumerate(majority_points(amounts, KINDS[i].scoring["ranks"])):
                out[s] += points
        return out

    def totals(self, tallies: Sequence[Tally], partial: bool = False) -> list[float]:
        """Return every seat's total; with `partial`, unfinished sets earn part credit."""
        return [p + m for p, m in zip([self.plain(t, partial) for t in tallies], self.majorities(tallies), strict=True)]
