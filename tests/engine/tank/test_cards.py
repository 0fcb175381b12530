"""Check the deck for every player count against the rulebook's table and the marking ruling."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.tank.cards import CARDS, build_catalogue, deck_for, kinds_in_play
from engine.tank.data import DATA_PATH, RULES, parse

FISH = ("guppy", "discus", "neon", "angelfish", "gourami", "molly")


@pytest.mark.parametrize(("players", "total"), [(2, 36), (3, 49), (4, 67), (5, 85)])
def test_deck_size_matches_the_rulebook(players: int, total: int) -> None:
    assert len(deck_for(players)) == total


@pytest.mark.parametrize(
    ("players", "per_fish", "neon"),
    [(2, 7, 0), (3, 8, 8), (4, 11, 11), (5, 14, 14)],
)
def test_each_fish_type_count_per_player_count(players: int, per_fish: int, neon: int) -> None:
    kinds = Counter(CARDS[c].kind for c in deck_for(players))
    assert kinds["neon"] == neon
    assert all(kinds[k] == per_fish for k in FISH if k != "neon")
    assert kinds["chest"] == 1


def test_markings_follow_the_ruling() -> None:
    marks = Counter((CARDS[c].kind, CARDS[c].marking) for c in deck_for(5))
    for kind in FISH:
        spread = tuple(marks[(kind, mark)] for mark in ("", "3+", "4+", "5"))
        assert spread == ((0, 8, 3, 3) if kind == "neon" else (7, 1, 3, 3))
    assert CARDS["chest"].marking == ""


def test_cards_with_a_higher_marking_stay_in_the_box() -> None:
    assert all(CARDS[c].min_players <= 4 for c in deck_for(4))
    assert not any(CARDS[c].marking == "5" for c in deck_for(4))
    assert any(CARDS[c].marking == "4+" for c in deck_for(4))
    assert {CARDS[c].marking for c in deck_for(2)} == {""}


def test_card_ids_are_unique_stable_and_readable() -> None:
    assert len(CARDS) == 85
    assert CARDS["molly-4+-2"].value == 2
    assert CARDS["molly-4+-2"].name == "Molly 2"
    assert CARDS["neon-3+-8"].name == "Neon Tetra"
    assert CARDS["chest"].name == "Treasure Chest"
    assert CARDS["guppy-1"].marking == ""


def test_neon_tetras_are_not_in_play_with_two_players() -> None:
    assert "neon" not in kinds_in_play(2)
    assert kinds_in_play(3) == FISH


def test_numbers_come_from_the_data_file() -> None:
    raw = json.loads(DATA_PATH.read_text(encoding="utf-8"))
    molly = next(f for f in raw["fish"] if f["key"] == "molly")
    molly["values"]["none"] = [9, 9, 9, 9, 9, 9, 9]
    raw["setup"]["2"]["rounds"] = 6
    rules = parse(raw)
    catalogue = build_catalogue(rules)
    assert catalogue["molly-1"].name == "Molly 9"
    assert rules.setup(2).rounds == 6
    assert RULES.setup(2).rounds == 4 and CARDS["molly-1"].value == 1


def test_printed_values_must_match_the_card_count() -> None:
    raw = json.loads(DATA_PATH.read_text(encoding="utf-8"))
    next(f for f in raw["fish"] if f["key"] == "molly")["values"]["4+"] = [1, 2]
    with pytest.raises(ValueError, match="printed values"):
        build_catalogue(parse(raw))
