"""Check the Block marker as the revised ruling reads: what it blocks, how it follows and when it is lifted."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.powers import available, marker_cell, settle_blocks
from engine.flippers.scoring import food_awards, scores
from engine.flippers.table import label
from tests.engine.flippers.helpers import NAMES, activate, at, play, table

SPARE = ("c-switch", "A1", "N", "up")
"""A face-up card of Ana's far from the rest, so her turn stays open after a play (its targets are empty)."""


def marker(state, seat: int) -> str | None:
    """Return the label of the cell a seat's marker sits on, or None when it is lifted."""
    cell = marker_cell(state, seat)
    return None if cell is None else label(cell)


def lines(events) -> list[str]:
    """Return the public lines of events."""
    return [GAME.describe(e, NAMES) for e in events]


def bob_blocks_ana(extra=(), ana_hand=("c-flip",), bob_hand=("m-block", "m-plus")):
    """Return a table where Bob has just played his Block onto Ana's Turn at N14."""
    cards = [("food-3", "N15", "N", "A"), ("c-turn", "N14", "E", "up"), SPARE, *extra]
    state = table(cards, {0: list(ana_hand), 1: list(bob_hand)}, current=1)
    play(state, "m-block", "N13", "S")
    assert marker(state, 1) == "N14" and state.current == 0
    return state


def test_an_opponents_card_with_a_block_marker_cannot_be_activated_but_still_earns_food() -> None:
    # Rulebook: "A faceup Explorer Card with a Block Marker cannot be activated but can still be affected by
    # all other card powers as well as earning points from Food Cards."
    state = bob_blocks_ana(extra=[("c-plus", "P10", "N", "up")])
    play(state, "c-flip", "M15", "W")
    assert available(state, 0) == ["c-switch", "c-plus"]
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match="under the Macaroni Block marker"):
        activate(state, "N14")
    assert GAME.dump(state) == before
    assert ("c-turn", 4) in [(a["target"], a["points"]) for a in food_awards(state)]
    card = next(c for c in GAME.view(state, None)["cards"] if c["id"] == "c-turn")
    assert card["markers"] == [1] and card["blocked_by"] == 1


def test_your_own_block_marker_blocks_your_own_card() -> None:
    # Ruling: the marker "blocks whatever card is in that cell, whoever owns it: ... or your own card."
    cards = [("c-plus", "N14", "E", "up"), ("c-block", "N13", "S", "up"), SPARE, ("c-minus", "C1", "N", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "M13", "W")
    assert available(state, 0) == ["c-switch", "c-plus", "c-minus", "c-block"]
    activate(state, "c-block")
    assert marker(state, 0) == "N14" and available(state, 0) == ["c-switch", "c-minus"]
    with pytest.raises(IllegalAction, match="under your own Block marker"):
        activate(state, "c-plus")


def test_a_team_up_partners_marker_blocks_your_card() -> None:
    # Ruling: "whoever owns it: an opponent's, a Team Up partner's, or your own card."
    cards = [("c-plus", "N14", "E", "up"), ("e-block", "N13", "S", "up"), ("c-minus", "P14", "E", "up"), SPARE]
    state = table(cards, {0: ["c-flip"]}, players=4, teams=True)
    state.engaged = [False, False, True, False]
    play(state, "c-flip", "M14", "W")
    assert available(state, 0) == ["c-switch", "c-minus"]
    with pytest.raises(IllegalAction, match="under the Emperor Block marker"):
        activate(state, "N14")


def test_the_rulebooks_example_blocked_leader_gets_no_bonus_but_food_arrows_still_pay_it() -> None:
    # Rulebook example, turn 2: "Player B plays and activates a Block card, adding their Block Marker to the
    # Leader Card of Player A." Ruling: "a blocked Leader gets no end-of-game bonus".
    cards = [("food-1", "N15", "N", "A"), ("c-leader", "N14", "S", "up")]  # Krill A: 3 north, onto the Leader
    state = table(cards, {0: ["c-flip"], 1: ["m-block"]}, current=1)
    assert scores(state)[0] == {"stash": 6, "food": 3, "leader": 1, "total": 10}
    events = play(state, "m-block", "M14", "E")
    assert "Bob's Block at M14 put its marker on Ana's Leader at N14." in lines(events)
    assert scores(state)[0] == {"stash": 6, "food": 3, "leader": 0, "total": 9}
    assert GAME.view(state, None)["projected"][0] == 9


def test_a_block_aimed_at_an_empty_cell_places_its_marker_there() -> None:
    # Ruling: "If the aimed-at cell is empty, the marker blocks nothing but stays".
    cards = [("food-3", "N15", "N", "A"), SPARE]
    state = table(cards, {0: ["c-flip"], 1: ["m-block", "m-plus"]}, current=1)
    events = play(state, "m-block", "N14", "N")
    assert marker(state, 1) == "N13"
    assert "Bob's Block at N14 put its marker on the empty cell N13: a card that enters it is blocked." in lines(
        events
    )
    view = GAME.view(state, None)
    assert view["markers"] == [{"cell": "N13", "col": 13, "row": 13, "team": 1, "letter": "M", "blocks": None}]


def test_a_marker_waiting_on_an_empty_cell_blocks_a_card_pushed_into_it() -> None:
    # Ruling: "a card that later enters the cell is blocked."
    cards = [("m-block", "N13", "S", "up"), ("c-plus", "M14", "E", "up"), SPARE]
    state = table(cards, {0: ["c-bump"], 1: ["m-flip"]})
    state.engaged[1] = True
    assert marker(state, 1) == "N14" and at(state, "N14") is None
    assert "c-plus" in available(state, 0)
    play(state, "c-bump", "L14", "E")  # pushes Ana's Plus from M14 into N14
    assert at(state, "N14") == "c-plus" and marker(state, 1) == "N14"
    assert "c-plus" not in available(state, 0)
    plus = next(c for c in GAME.view(state, None)["cards"] if c["id"] == "c-plus")
    assert plus["blocked_by"] == 1


def test_a_card_played_into_a_waiting_markers_cell_is_blocked_at_once() -> None:
    # Ruling: "a card that later enters the cell is blocked": a card played there does not act.
    cards = [("food-3", "N15", "N", "A"), ("m-block", "N12", "S", "up"), ("c-plus", "O13", "W", "up"), SPARE]
    state = table(cards, {0: ["c-minus"], 1: ["m-flip"]})
    state.engaged[1] = True
    assert marker(state, 1) == "N13"
    events = play(state, "c-minus", "N13", "E")  # would take 2 from Ana's own Plus at O13
    assert "Ana's Minus at N13 is under a Block marker: its power does not act." in lines(events)
    assert state.stash == [6, 6]
    assert available(state, 0) == ["c-switch", "c-plus"]


def test_a_marker_whose_target_leaves_stays_on_the_now_empty_cell() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("m-block", "N13", "S", "up"), SPARE]
    state = table(cards, {0: ["c-bump"], 1: ["m-flip"]})
    state.engaged[1] = True
    events = play(state, "c-bump", "M14", "E")
    assert at(state, "O14") == "c-plus" and at(state, "N14") is None
    assert marker(state, 1) == "N14" and all(e.kind != "lifted" for e in events)
    assert "c-plus" in available(state, 0)


def test_block_turned_by_an_opponent_moves_the_marker() -> None:
    # Rulebook: "If a Block card has been turned or moved positions, the Block Marker will also move".
    cards = [
        ("c-plus", "N14", "E", "up"),
        ("c-minus", "M13", "N", "up"),
        ("m-block", "N13", "S", "up"),
        SPARE,
    ]
    state = table(cards, {0: ["c-turn"], 1: ["m-flip"]})
    state.engaged[1] = True
    assert marker(state, 1) == "N14"
    events = play(state, "c-turn", "N12", "S")
    assert state.facing["m-block"] == "W" and marker(state, 1) == "M13"
    assert available(state, 0) == ["c-switch", "c-plus"]
    with pytest.raises(IllegalAction, match="Block marker"):
        activate(state, "M13")
    assert all(e.kind != "lifted" for e in events)


def test_block_moved_by_a_bump_takes_its_marker_along() -> None:
    cards = [("c-plus", "N14", "E", "up"), ("c-minus", "O14", "N", "up"), ("m-block", "N13", "S", "up"), SPARE]
    state = table(cards, {0: ["c-bump"], 1: ["m-flip"]})
    state.engaged[1] = True
    play(state, "c-bump", "M13", "E")
    assert label(state.where["m-block"]) == "O13" and marker(state, 1) == "O14"
    assert available(state, 0) == ["c-switch", "c-plus"]


def test_flipping_the_block_card_face_down_lifts_the_marker_until_it_acts_again() -> None:
    # Rulebook: "The Block Marker will only be removed if a Block card has been flipped facedown ...
    # Reassign the Block Marker when it is activated on the following turn."
    cards = [
        ("c-plus", "N14", "E", "up"),
        ("m-block", "N13", "S", "up"),
        ("c-flip", "N12", "E", "up"),
        SPARE,
    ]
    state = table(cards, {0: ["c-turn"], 1: ["m-minus"]})
    state.engaged[1] = True
    play(state, "c-turn", "O12", "W")  # turns Ana's Flip at N12 from E to S: at Bob's Block
    assert state.current == 0 and marker(state, 1) == "N14"
    events = activate(state, "N12")
    assert state.face["m-block"] == "down" and marker(state, 1) is None
    assert "Bob's Block marker was lifted: its Block card is face down." in lines(events)
    assert "c-plus" in available(state, 0)
    # Face up again, it does not come back by itself.
    state.face["m-block"] = "up"
    settle_blocks(state)
    assert marker(state, 1) is None


def test_an_opponents_block_on_your_block_card_lifts_your_marker() -> None:
    # Rulebook: removed "if your Block card has been affected by an opponent's Block card".
    cards = [("c-plus", "N14", "E", "up"), ("m-block", "N13", "S", "up")]
    state = table(cards, {0: ["c-block"], 1: ["m-flip"]})
    state.engaged[1] = True
    events = play(state, "c-block", "M13", "E")
    assert marker(state, 0) == "N13" and marker(state, 1) is None
    text = lines(events)
    assert "Ana's Block at M13 put its marker on Bob's Block at N13." in text
    assert "Bob's Block marker was lifted: an opponent's marker sits on its Block card." in text
    # Bob cannot use his Block while Ana's marker sits on it.
    state.current, state.played, state.activated = 1, "m-flip", ["m-flip"]
    with pytest.raises(IllegalAction, match="Chinstrap Block marker"):
        activate(state, "m-block", seat=1)


def test_a_partners_marker_on_your_block_card_blocks_it_but_does_not_lift_your_marker() -> None:
    # Ruling: "is itself under an opponent's marker (Team Up: a non-partner's)".
    cards = [("m-plus", "N14", "E", "up"), ("c-block", "N13", "S", "up"), ("e-block", "M13", "E", "up")]
    state = table(cards, players=4, teams=True)
    state.engaged = [True, False, True, False]
    settle_blocks(state)
    assert marker(state, 0) == "N14" and marker(state, 2) == "N13"


def test_two_block_cards_made_to_block_each_other_both_lose_their_markers() -> None:
    cards = [
        ("c-block", "O13", "W", "up"),
        ("m-turn", "N13", "N", "up"),
        ("m-block", "N11", "E", "up"),
        ("c-leader", "O11", "N", "up"),
        ("c-minus", "A1", "N", "up"),
    ]
    state = table(cards, {0: ["c-switch"], 1: ["m-flip"]})
    state.engaged = [True, True]
    assert marker(state, 0) == "N13" and marker(state, 1) == "O11"
    events = play(state, "c-switch", "N12", "W")
    assert label(state.where["m-block"]) == "N13" and label(state.where["m-turn"]) == "N11"
    assert state.engaged == [False, False]
    assert sum(line.endswith("two Block cards were blocking each other.") for line in lines(events)) == 2


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


def test_a_marker_on_a_leader_or_food_card_only_sits_there() -> None:
    cards = [("food-3", "N15", "N", "A"), ("m-leader", "N14", "N", "up")]
    state = table(cards, {0: ["c-block"], 1: ["m-block"]})
    play(state, "c-block", "N16", "N")
    assert marker(state, 0) == "N15"
    play(state, "m-block", "M14", "E")
    assert marker(state, 1) == "N14"
    assert {m["cell"] for m in GAME.view(state, None)["markers"]} == {"N14", "N15"}
