"""Score aquariums: each fish type by its rule from data, the Treasure Chest and the goal card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.tank.cards import CARDS, kinds_in_play
from engine.tank.data import RULES, CardKind, Goal

KINDS: dict[str, CardKind] = {k.key: k for k in RULES.kinds}


def counts(hand: Sequence[str]) -> dict[str, int]:
    """Return how many cards of each kind (fish types and chest) a hand holds."""
    result = {k.key: 0 for k in RULES.kinds}
    for card_id in hand:
        result[CARDS[card_id].kind] += 1
    return result


def kind_points(kind: CardKind, cards: Sequence[str]) -> int:
    """Return the points of one kind's cards in one aquarium (not for majority kinds)."""
    rule = kind.scoring
    n = len(cards)
    match rule["kind"]:
        case "each":
            return n * rule["points"]
        case "printed":
            return sum(CARDS[c].value or 0 for c in cards)
        case "parity":
            return n * (rule["odd_each"] if n % 2 else rule["even_each"])
        case "sets":
            return (n // rule["size"]) * rule["points"]
        case "table":
            table = rule["table"]
            return table[min(n, len(table) - 1)]
    raise ValueError(f"{kind.key}: scoring kind {rule['kind']!r} is not per aquarium")


def majority_points(amounts: Sequence[int], ranks: Sequence[int]) -> list[int]:
    """Award ranks[i] to every player at the i-th highest distinct non-zero amount; zero earns nothing."""
    distinct = sorted({a for a in amounts if a > 0}, reverse=True)
    award = {a: ranks[i] for i, a in enumerate(distinct) if i < len(ranks)}
    return [award.get(a, 0) for a in amounts]


def goal_met(goal: Goal, hand: Sequence[str], players: int) -> bool:
    """Return True when a hand fulfils the goal card."""
    tally = counts(hand)
    fish = {k.key: tally[k.key] for k in RULES.fish}
    match goal.kind:
        case "every_type":
            return all(fish[k] > 0 for k in kinds_in_play(players))
        case "one_type":
            return max(fish.values()) >= goal.minimum
        case "fish_cards":
            return sum(fish.values()) >= goal.minimum
    raise ValueError(f"unknown goal kind {goal.kind!r}")


def _by_kind(hand: Sequence[str]) -> dict[str, list[str]]:
    """Group a hand's card ids by kind."""
    grouped: dict[str, list[str]] = {k.key: [] for k in RULES.kinds}
    for card_id in hand:
        grouped[CARDS[card_id].kind].append(card_id)
    return grouped


def breakdown(hand: Sequence[str], goal: Goal, players: int, majority: dict[str, int] | None) -> dict[str, Any]:
    """Return one aquarium's points per kind, goal and total; majority kinds are None without `majority`."""
    grouped = _by_kind(hand)
    result: dict[str, Any] = {}
    total = 0
    for kind in RULES.kinds:
        if kind.scoring["kind"] == "majority":
            pts = None if majority is None else majority[kind.key]
        else:
            pts = kind_points(kind, grouped[kind.key])
        result[kind.key] = pts
        total += pts or 0
    met = goal_met(goal, hand, players)
    result["goal"] = RULES.goal_points if met else 0
    result["goal_met"] = met
    result["total"] = total + result["goal"]
    result["counts"] = {k: len(v) for k, v in grouped.items()}
    return result


def score_all(hands: Sequence[Sequence[str]], goal: Goal, competing: Sequence[bool]) -> list[dict[str, Any]]:
    """Score every aquarium; only competing seats take part in majorities (others score 0 there)."""
    players = len(hands)
    majority: list[dict[str, int]] = [{} for _ in hands]
    for kind in RULES.kinds:
        if kind.scoring["kind"] != "majority":
            continue
        amounts = [sum(1 for c in h if CARDS[c].kind == kind.key) if competing[i] else 0 for i, h in enumerate(hands)]
        for seat, pts in enumerate(majority_points(amounts, kind.scoring["ranks"])):
            majority[seat][kind.key] = pts
    return [breakdown(h, goal, players, majority[i]) for i, h in enumerate(hands)]


def preview(hand: Sequence[str], goal: Goal, players: int) -> dict[str, Any]:
    """Return a seat's own score so far; majority kinds are None because they depend on hidden hands."""
    return breakdown(hand, goal, players, None)
