"""Check every Explorer power on the table, edge cases included."""

from __future__ import annotations

from engine.flippers import GAME
from engine.flippers.scoring import food_awards
from tests.engine.flippers.helpers import NAMES, at, play, table

WAIT = {1: ["m-flip"]}  # Bob holds a card, so play passes to him instead of ending the game


def lines(events: list) -> list[str]:
    """Return the public lines the events print."""
    return [line for e in events if (line := GAME.describe(e, NAMES))]


# Flip


def test_flip_turns_the_target_face_down_and_mirrors_it_along_the_arrow() -> None:
    state = table([("m-turn", "O14", "E", "up")], {0: ["c-flip"], **WAIT})
    events = play(state, "c-flip", "N14", "E")
    assert state.face["m-turn"] == "down" and state.facing["m-turn"] == "W"
    assert "Ana's Flip at N14 flipped Bob's Turn at O14 face down, now facing west." in lines(events)


def test_flip_across_the_axis_keeps_the_orientation() -> None:
    state = table([("m-turn", "O14", "N", "up")], {0: ["c-flip"], **WAIT})
    play(state, "c-flip", "N14", "E")
    assert state.face["m-turn"] == "down" and state.facing["m-turn"] == "N"


def test_flip_turns_a_face_down_card_face_up() -> None:
    state = table([("m-turn", "N13", "S", "down")], {0: ["c-flip"], **WAIT})
    play(state, "c-flip", "N14", "N")
    assert state.face["m-turn"] == "up" and state.facing["m-turn"] == "N"


def test_flip_shows_a_food_cards_other_side_mirrored() -> None:
    state = table([("food-1", "N15", "N", "A"), ("m-leader", "N14", "S", "up")], {0: ["c-flip"], **WAIT})
    assert [(a["target"], a["points"]) for a in food_awards(state) if a["kind"] == "food"] == [
        ("m-leader", 3)
    ]
    events = play(state, "c-flip", "N16", "N")
    assert state.face["food-1"] == "B" and state.facing["food-1"] == "S"
    assert "flipped Krill at N15 to side B" in lines(events)[1]
    # Side B of Krill is E2, W2: it now pays the cards beside it, not the Leader above it.
    assert [a["cell"] for a in food_awards(state) if a["kind"] == "food"] == []


def test_flip_at_an_empty_cell_does_nothing() -> None:
    state = table([("m-turn", "O14", "E", "up")], {0: ["c-flip"], **WAIT})
    events = play(state, "c-flip", "N14", "W")
    assert state.face["m-turn"] == "up"
    assert "Ana's Flip at N14 had nothing to target." in lines(events)


# Bump


def test_bump_pushes_the_unbroken_line_and_stops_at_a_gap() -> None:
    cards = [
        ("m-turn", "N15", "N", "up"),
        ("food-2", "O15", "N", "A"),
        ("m-plus", "P15", "N", "down"),
        ("m-block", "R15", "S", "up"),
    ]
    state = table(cards, {0: ["c-bump"], **WAIT})
    events = play(state, "c-bump", "M15", "E")
    assert at(state, "N15") is None
    assert [at(state, c) for c in ("O15", "P15", "Q15", "R15")] == ["m-turn", "food-2", "m-plus", "m-block"]
    assert at(state, "M15") == "c-bump"
    assert "Ana's Bump at M15 pushed 3 cards east from N15." in lines(events)


def test_bump_past_the_edge_of_the_table_grows_it_and_labels_stay_typeable() -> None:
    state = table(
        [("m-turn", "Y5", "N", "up"), ("m-plus", "Z5", "N", "up"), ("m-flip", "A9", "N", "up")],
        {0: ["c-bump"], 1: ["m-bump"]},
    )
    play(state, "c-bump", "X5", "E")
    assert at(state, "Z5") == "m-turn" and at(state, "AA5") == "m-plus"
    play(state, "m-bump", "B9", "W")
    assert at(state, "-A9") == "m-flip"
    assert {"AA5", "-A9"} <= {c["cell"] for c in GAME.view(state, None)["cards"]}


def test_bump_north_off_row_one_reaches_row_zero() -> None:
    state = table([("m-turn", "C1", "N", "up")], {0: ["c-bump"], **WAIT})
    play(state, "c-bump", "C2", "N")
    assert at(state, "C0") == "m-turn"


def test_bump_at_an_empty_cell_moves_nothing() -> None:
    state = table([("m-turn", "N15", "N", "up")], {0: ["c-bump"], **WAIT})
    events = play(state, "c-bump", "N16", "E")
    assert at(state, "N15") == "m-turn"
    assert "Ana's Bump at N16 had nothing to target." in lines(events)


# Switch


def test_switch_swaps_its_left_and_right_cards() -> None:
    state = table([("m-turn", "N14", "N", "up"), ("food-3", "N16", "E", "A")], {0: ["c-switch"], **WAIT})
    events = play(state, "c-switch", "N15", "E")
    assert at(state, "N14") == "food-3" and at(state, "N16") == "m-turn"
    assert state.facing["food-3"] == "E" and at(state, "N15") == "c-switch"
    assert "Ana's Switch at N15 swapped Bob's Turn (N14) and Icefish (N16)." in lines(events)


def test_switch_with_one_empty_side_moves_the_other_card_into_it() -> None:
    state = table([("m-turn", "M15", "N", "up")], {0: ["c-switch"], **WAIT})
    events = play(state, "c-switch", "N15", "N")
    assert at(state, "M15") is None and at(state, "O15") == "m-turn"
    assert "Ana's Switch at N15 moved Bob's Turn from M15 to O15." in lines(events)


def test_switch_with_both_sides_empty_does_nothing() -> None:
    state = table([("m-turn", "N14", "N", "up")], {0: ["c-switch"], **WAIT})
    events = play(state, "c-switch", "N15", "N")
    assert at(state, "N14") == "m-turn"
    assert "Ana's Switch at N15 had nothing to target." in lines(events)


# Replace


def test_replace_swaps_places_with_a_food_card() -> None:
    state = table([("food-1", "N15", "N", "A"), ("m-turn", "N13", "N", "up")], {0: ["c-replace"], **WAIT})
    events = play(state, "c-replace", "N16", "N")
    assert at(state, "N16") == "food-1" and at(state, "N15") == "c-replace"
    assert "Ana's Replace at N16 swapped places with Krill at N15." in lines(events)
    # Krill A (N3, S1) now points north at Ana's Replace.
    assert [(a["target"], a["points"]) for a in food_awards(state)] == [("c-replace", 3)]


def test_replace_with_nothing_ahead_stays_put() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-replace"], **WAIT})
    play(state, "c-replace", "N16", "S")
    assert at(state, "N16") == "c-replace" and at(state, "N15") == "food-1"


# Turn


def test_turn_rotates_a_food_card_and_its_arrows() -> None:
    state = table([("food-1", "N15", "N", "A"), ("m-turn", "O15", "N", "up")], {0: ["c-turn"], **WAIT})
    events = play(state, "c-turn", "N16", "N")
    assert state.facing["food-1"] == "E"
    assert "Ana's Turn at N16 turned Krill at N15 to face east." in lines(events)
    assert [(a["target"], a["points"], a["direction"]) for a in food_awards(state)] == [("m-turn", 3, "E")]
    view_arrows = next(c for c in GAME.view(state, None)["cards"] if c["id"] == "food-1")["arrows"]
    assert view_arrows == [{"dir": "E", "points": 3, "cell": "O15"}, {"dir": "W", "points": 1, "cell": "M15"}]


def test_turn_rotates_face_down_explorers_too() -> None:
    state = table([("m-plus", "N14", "W", "down")], {0: ["c-turn"], **WAIT})
    play(state, "c-turn", "N15", "N")
    assert state.facing["m-plus"] == "N" and state.face["m-plus"] == "down"


# Plus and Minus


def test_plus_gives_the_target_team_a_point_from_the_supply() -> None:
    state = table([("m-leader", "N14", "N", "up")], {0: ["c-plus"], **WAIT})
    supply = state.supply
    events = play(state, "c-plus", "N15", "N")
    assert state.stash == [6, 7] and state.supply == supply - 1
    assert "Ana's Plus at N15 gave Bob 1 point from the supply." in lines(events)


def test_plus_on_a_face_down_card_does_nothing() -> None:
    state = table([("m-turn", "N14", "N", "down")], {0: ["c-plus"], **WAIT})
    events = play(state, "c-plus", "N15", "N")
    assert state.stash == [6, 6]
    assert "Ana's Plus at N15 has no effect on the face-down Bob's Turn." in lines(events)


def test_plus_on_a_food_card_does_nothing() -> None:
    state = table([("food-2", "N14", "N", "A")], {0: ["c-plus"], **WAIT})
    play(state, "c-plus", "N15", "N")
    assert state.stash == [6, 6]


def test_plus_with_an_empty_supply_gives_nothing() -> None:
    state = table([("m-turn", "N14", "N", "up")], {0: ["c-plus"], **WAIT})
    state.stash, state.supply = [6, 76], 0
    events = play(state, "c-plus", "N15", "N")
    assert state.stash == [6, 76] and state.supply == 0
    assert "Ana's Plus at N15 aimed at Bob's Turn, but the supply is empty." in lines(events)


def test_minus_returns_two_points_to_the_supply() -> None:
    state = table([("m-turn", "N14", "N", "up")], {0: ["c-minus"], **WAIT})
    supply = state.supply
    events = play(state, "c-minus", "N15", "N")
    assert state.stash == [6, 4] and state.supply == supply + 2
    assert "Ana's Minus at N15 sent 2 points from Bob back to the supply." in lines(events)


def test_minus_at_one_point_takes_only_that_point() -> None:
    state = table([("m-turn", "N14", "N", "up")], {0: ["c-minus"], **WAIT})
    state.stash, state.supply = [6, 1], state.supply + 5
    play(state, "c-minus", "N15", "N")
    assert state.stash == [6, 0] and state.supply + sum(state.stash) == 82


def test_minus_at_zero_points_takes_nothing() -> None:
    state = table([("m-turn", "N14", "N", "up")], {0: ["c-minus"], **WAIT})
    state.stash, state.supply = [6, 0], state.supply + 6
    events = play(state, "c-minus", "N15", "N")
    assert state.stash == [6, 0]
    assert "Ana's Minus at N15 aimed at Bob's Turn, but Bob has no points to lose." in lines(events)


def test_minus_on_your_own_card_costs_you() -> None:
    state = table([("c-turn", "N14", "N", "up")], {0: ["c-minus"], **WAIT})
    state.face["c-turn"] = "down"
    play(state, "c-minus", "N15", "N")
    assert state.stash == [6, 6]
    state = table([("c-leader", "N14", "N", "up")], {0: ["c-minus"], **WAIT})
    play(state, "c-minus", "N15", "N")
    assert state.stash == [4, 6]
