"""Check the Block marker: what it stops, how it follows its Block card and when it is lifted."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.powers import available, marker_cell, settle_blocks
from engine.flippers.scoring import food_awards
from engine.flippers.table import label
from tests.engine.flippers.helpers import NAMES, activate, play, table


def marker(state, seat: int) -> str | None:
    """Return the label of the cell a seat's marker sits on, or None when it is lifted."""
    cell = marker_cell(state, seat)
    return None if cell is None else label(cell)


def bob_blocks_ana(extra=(), ana_hand=("c-flip",), bob_hand=("m-block", "m-plus")):
    """Return a table where Bob has just played his Block onto Ana's Turn at N14."""
    cards = [("food-3", "N15", "N", "A"), ("c-turn", "N14", "E", "up"), *extra]
    state = table(cards, {0: list(ana_hand), 1: list(bob_hand)}, current=1)
    play(state, "m-block", "N13", "S")
    assert marker(state, 1) == "N14" and state.current == 0
    return state


def test_a_blocked_card_cannot_be_activated_but_still_scores() -> None:
    state = bob_blocks_ana(extra=[("c-plus", "P10", "N", "up")])
    play(state, "c-flip", "M15", "W")
    assert available(state, 0) == ["c-plus"]
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match="under the Macaroni Block marker"):
        activate(state, "N14")
    assert GAME.dump(state) == before
    assert ("c-turn", 4) in [(a["target"], a["points"]) for a in food_awards(state)]
    card = next(c for c in GAME.view(state, None)["cards"] if c["id"] == "c-turn")
    assert card["markers"] == [1] and card["blocked_by"] == 1


def test_block_turned_by_an_opponent_moves_the_marker() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("c-minus", "M13", "N", "up"), ("m-block", "N13", "S", "up")]
    state = table(cards, {0: ["c-turn"], 1: ["m-flip"]})
    state.engaged[1] = True
    assert marker(state, 1) == "N14"
    events = play(state, "c-turn", "N12", "S")
    assert state.facing["m-block"] == "W" and marker(state, 1) == "M13"
    assert available(state, 0) == ["c-plus"]  # freed; Ana's Minus at M13 is now the blocked one
    with pytest.raises(IllegalAction, match="Block marker"):
        activate(state, "M13")
    assert all(e.kind != "lifted" for e in events)


def test_block_moved_by_a_bump_takes_its_marker_along() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("c-minus", "O14", "N", "up"), ("m-block", "N13", "S", "up")]
    state = table(cards, {0: ["c-bump"], 1: ["m-flip"]})
    state.engaged[1] = True
    play(state, "c-bump", "M13", "E")
    assert label(state.where["m-block"]) == "O13" and marker(state, 1) == "O14"
    assert available(state, 0) == ["c-plus"]


def test_flipping_the_block_card_face_down_lifts_the_marker_until_it_acts_again() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("m-block", "N13", "S", "up"), ("c-flip", "N12", "E", "up")]
    state = table(cards, {0: ["c-turn"], 1: ["m-minus"]})
    state.engaged[1] = True
    play(state, "c-turn", "O12", "W")  # turns Ana's Flip at N12 from E to S: at Bob's Block
    assert state.current == 0 and marker(state, 1) == "N14"
    events = activate(state, "N12")
    assert state.face["m-block"] == "down" and marker(state, 1) is None
    assert "Bob's Block marker was lifted: its Block card is face down." in [
        GAME.describe(e, NAMES) for e in events
    ]
    assert "c-plus" in available(state, 0)
    # Face up again, it does not come back by itself.
    state.face["m-block"] = "up"
    settle_blocks(state)
    assert marker(state, 1) is None


def test_an_opponents_block_on_your_block_card_lifts_your_marker() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("m-block", "N13", "S", "up")]
    state = table(cards, {0: ["c-block"], 1: ["m-flip"]})
    state.engaged[1] = True
    events = play(state, "c-block", "M13", "E")
    assert marker(state, 0) == "N13" and marker(state, 1) is None
    text = [GAME.describe(e, NAMES) for e in events]
    assert "Ana's Block at M13 put its marker on Bob's Block at N13." in text
    assert "Bob's Block marker was lifted: an opponent's marker sits on its Block card." in text
    # Bob cannot use his Block while Ana's marker sits on it.
    state.current, state.played, state.activated = 1, "m-flip", ["m-flip"]
    with pytest.raises(IllegalAction, match="Chinstrap Block marker"):
        activate(state, "m-block", seat=1)


def test_a_marker_whose_target_leaves_is_lifted() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("m-block", "N13", "S", "up")]
    state = table(cards, {0: ["c-bump"], 1: ["m-flip"]})
    state.engaged[1] = True
    events = play(state, "c-bump", "M14", "E")
    assert marker(state, 1) is None
    assert "Bob's Block marker was lifted: its Block card no longer aims at a card." in [
        GAME.describe(e, NAMES) for e in events
    ]


def test_two_block_cards_made_to_block_each_other_both_lose_their_markers() -> None:
    cards = [
        ("c-block", "O13", "W", "up"),
        ("m-turn", "N13", "N", "up"),
        ("m-block", "N11", "E", "up"),
        ("c-leader", "O11", "N", "up"),
    ]
    state = table(cards, {0: ["c-switch"], 1: ["m-flip"]})
    state.engaged = [True, True]
    assert marker(state, 0) == "N13" and marker(state, 1) == "O11"
    events = play(state, "c-switch", "N12", "W")
    assert label(state.where["m-block"]) == "N13" and label(state.where["m-turn"]) == "N11"
    assert state.engaged == [False, False]
    assert (
        sum(GAME.describe(e, NAMES).endswith("two Block cards were blocking each other.") for e in events)
        == 2
    )


def test_a_marker_under_a_standing_marker_is_lifted_and_frees_the_next_one() -> None:
    cards = [
        ("c-block", "M13", "E", "up"),
        ("m-block", "N13", "E", "up"),
        ("e-block", "O13", "S", "up"),
        ("c-plus", "O14", "N", "up"),
    ]
    state = table(cards, players=3)
    state.engaged = [True, True, True]
    settle_blocks(state)
    assert state.engaged == [True, False, True]
    assert marker(state, 2) == "O14"


def test_your_own_marker_never_blocks_you() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("c-block", "N13", "S", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "M14", "W")
    assert available(state, 0) == ["c-plus", "c-block"]
    activate(state, "c-block")
    assert marker(state, 0) == "N14" and available(state, 0) == ["c-plus"]


def test_team_up_partners_markers_do_not_block_but_opponents_do() -> None:
    cards = [
        ("c-plus", "N14", "E", "up"),
        ("e-block", "N13", "S", "up"),
        ("c-minus", "P14", "E", "up"),
        ("m-block", "P13", "S", "up"),
    ]
    state = table(cards, {0: ["c-flip"]}, players=4, teams=True)
    state.engaged = [False, True, True, False]
    play(state, "c-flip", "M14", "W")
    assert available(state, 0) == ["c-plus"]


def test_a_marker_on_a_leader_or_food_card_only_sits_there() -> None:
    cards = [("food-3", "N15", "N", "A"), ("m-leader", "N14", "N", "up")]
    state = table(cards, {0: ["c-block"], 1: ["m-block"]})
    play(state, "c-block", "N16", "N")
    assert marker(state, 0) == "N15"
    play(state, "m-block", "M14", "E")
    assert marker(state, 1) == "N14"
    assert {m["cell"] for m in GAME.view(state, None)["markers"]} == {"N14", "N15"}
