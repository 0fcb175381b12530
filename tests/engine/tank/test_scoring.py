"""Score aquariums exactly as the rulebook and the rulings say."""

from __future__ import annotations

import pytest

from engine.tank.cards import CARDS
from engine.tank.data import RULES
from engine.tank.scoring import goal_met, majority_points, score_all
from tests.engine.tank.helpers import cards_of


def _score(hand: list[str], goal: str = "big_school") -> dict:
    """Score one aquarium next to an empty one."""
    return score_all([hand, []], RULES.goal(goal), [True, True])[0]


NEON = [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21), (7, 21)]
GUPPY = [(0, 0), (1, 2), (2, 6), (3, 6), (4, 12), (5, 10), (7, 14), (8, 24)]


@pytest.mark.parametrize(("n", "points"), NEON)
def test_neon_tetras_follow_the_table_and_cap_at_six(n: int, points: int) -> None:
    assert _score(cards_of("neon")[:n])["neon"] == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 0), (2, 0), (3, 9), (4, 9), (5, 9), (6, 18), (7, 18)])
def test_angelfish_score_nine_per_full_set_and_leftovers_nothing(n: int, points: int) -> None:
    assert _score(cards_of("angelfish")[:n])["angelfish"] == points


@pytest.mark.parametrize(("n", "points"), GUPPY)
def test_guppies_score_two_each_when_odd_and_three_each_when_even(n: int, points: int) -> None:
    assert _score(cards_of("guppy")[:n])["guppy"] == points


def test_zero_guppies_score_nothing() -> None:
    assert _score(cards_of("molly")[:2])["guppy"] == 0


def test_mollies_carry_the_printed_house_values() -> None:
    values: dict[str, list[int | None]] = {}
    for card in cards_of("molly"):
        values.setdefault(CARDS[card].marking, []).append(CARDS[card].value)
    assert values == {"": [1, 2, 2, 3, 3, 4, 5], "3+": [3], "4+": [1, 2, 4], "5": [2, 3, 4]}


def test_mollies_score_the_sum_of_their_printed_values() -> None:
    hand = ["molly-7", "molly-4+-3", "molly-1"]  # printed 5, 4 and 1
    assert [CARDS[c].value for c in hand] == [5, 4, 1]
    assert _score(hand)["molly"] == 10


def test_each_gourami_scores_five() -> None:
    assert _score(cards_of("gourami")[:3])["gourami"] == 15


def test_treasure_chest_scores_seven_and_only_for_its_holder() -> None:
    scores = score_all([["chest"], cards_of("guppy")[:1]], RULES.goal("big_school"), [True, True])
    assert (scores[0]["chest"], scores[1]["chest"]) == (7, 0)


def _discus_points(amounts: list[int]) -> list[int]:
    """Score Discus for hands holding these many Discus each."""
    pool = cards_of("discus")
    hands, at = [], 0
    for n in amounts:
        hands.append(pool[at : at + n])
        at += n
    return [s["discus"] for s in score_all(hands, RULES.goal("big_school"), [True] * len(hands))]


def test_discus_most_scores_ten_and_second_most_five() -> None:
    assert _discus_points([1, 4, 2]) == [0, 10, 5]


def test_discus_tie_for_most_all_score_ten_and_next_count_still_scores_five() -> None:
    assert _discus_points([3, 3, 1, 0]) == [10, 10, 5, 0]


def test_discus_tie_for_second_all_score_five() -> None:
    assert _discus_points([4, 2, 2, 1]) == [10, 5, 5, 0]


def test_zero_discus_never_scores_even_as_second() -> None:
    assert _discus_points([2, 0, 0]) == [10, 0, 0]
    assert _discus_points([0, 0]) == [0, 0]


def test_majority_only_counts_distinct_amounts() -> None:
    assert majority_points([5, 5, 5], [10, 5]) == [10, 10, 10]


def test_resigned_seat_takes_no_part_in_discus() -> None:
    pool = cards_of("discus")
    hands = [pool[:5], pool[5:7], pool[7:8]]
    scores = score_all(hands, RULES.goal("big_school"), [False, True, True])
    assert [s["discus"] for s in scores] == [0, 10, 5]


def test_community_tank_needs_five_types_with_two_players_and_six_with_more() -> None:
    goal = RULES.goal("community")
    five = [cards_of(k, 2)[0] for k in ("guppy", "discus", "angelfish", "gourami", "molly")]
    assert goal_met(goal, five, 2)
    assert not goal_met(goal, five, 3)
    assert goal_met(goal, [*five, cards_of("neon")[0]], 3)
    assert not goal_met(goal, five[:4], 2)


def test_big_school_needs_six_of_one_type() -> None:
    goal = RULES.goal("big_school")
    assert not goal_met(goal, cards_of("guppy")[:5] + cards_of("molly")[:5], 4)
    assert goal_met(goal, cards_of("molly")[:6], 4)


def test_full_tank_needs_twelve_fish_and_the_chest_is_not_a_fish() -> None:
    goal = RULES.goal("full_tank")
    eleven = cards_of("guppy")[:6] + cards_of("discus")[:5]
    assert not goal_met(goal, [*eleven, "chest"], 4)
    assert goal_met(goal, [*eleven, cards_of("molly")[0]], 4)


def test_goal_gives_five_points_to_every_player_who_meets_it() -> None:
    hands = [cards_of("molly")[:6], cards_of("guppy")[:6], cards_of("discus")[:5]]
    scores = score_all(hands, RULES.goal("big_school"), [True] * 3)
    assert [s["goal"] for s in scores] == [5, 5, 0]


def test_total_adds_every_type_the_chest_and_the_goal() -> None:
    hand = [*cards_of("guppy")[:2], *cards_of("neon")[:3], *cards_of("angelfish")[:3], "chest"]
    hand += ["molly-7", cards_of("gourami")[0], *cards_of("discus")[:1]]
    score = score_all([hand, []], RULES.goal("community"), [True, True])[0]
    assert score["counts"]["neon"] == 3
    # Guppy 6, Neon 6, Angelfish 9, chest 7, Molly 5, Gourami 5, Discus 10 (sole holder), goal 5.
    assert score["total"] == 6 + 6 + 9 + 7 + 5 + 5 + 10 + 5
