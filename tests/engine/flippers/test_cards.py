"""Check the box contents read from data/flippers.json match the rulebook and rulings."""

from __future__ import annotations

from engine.flippers.cards import CARDS, FOOD_IDS, SUPPLY_TOTAL, TEAMS, setup_rule, team_cards


def test_six_teams_of_nine_cards_with_the_same_powers() -> None:
    assert [t["name"] for t in TEAMS] == [
        "Chinstrap Penguins",
        "Macaroni Penguins",
        "Emperor Penguins",
        "Weddell Seals",
        "Leopard Seals",
        "Elephant Seals",
    ]
    powers = [[CARDS[c].power for c in team_cards(t)] for t in range(6)]
    assert powers[0] == ["leader", "flip", "bump", "switch", "replace", "turn", "plus", "minus", "block"]
    assert all(p == powers[0] for p in powers)
    assert len({t["letter"] for t in TEAMS}) == 6


def test_cards_have_unique_ids_and_display_names() -> None:
    assert len(CARDS) == 6 * 9 + 6
    assert len({c.name for c in CARDS.values()}) == len(CARDS)
    assert CARDS["c-bump"].name == "Chinstrap Bump"


def test_the_six_food_cards_match_the_rulings() -> None:
    sides = {fid: {s: dict(a) for s, a in CARDS[fid].sides} for fid in FOOD_IDS}
    assert sides == {
        "food-1": {"A": {"N": 3, "S": 1}, "B": {"E": 2, "W": 2}},
        "food-2": {"A": {"N": 2, "E": 2}, "B": {"S": 3, "W": 1}},
        "food-3": {"A": {"N": 4}, "B": {"E": 1, "S": 1, "W": 1}},
        "food-4": {"A": {"N": 2, "S": 2}, "B": {"N": 1, "E": 3}},
        "food-5": {"A": {"N": 3, "E": 1}, "B": {"S": 2, "W": 2}},
        "food-6": {"A": {"N": 1, "E": 1, "S": 1, "W": 1}, "B": {"N": 5}},
    }


def test_supply_and_reference_table() -> None:
    assert SUPPLY_TOTAL == 38 + 22 * 2
    assert [setup_rule(n) for n in range(2, 7)] == [(1, 1), (1, 2), (2, 2), (3, 3), (3, 3)]
