"""Check that a turn's remaining activations resolve by themselves only when their order cannot matter."""

from __future__ import annotations

from engine.flippers import GAME
from engine.flippers.orders import order_matters
from tests.engine.flippers.helpers import NAMES, table

FOOD = ("food-1", "N15", "N", "A")


def independent():
    """Return a table where Ana's Plus and Turn, both due after her play, touch nothing the other touches."""
    cards = [FOOD, ("m-turn", "L15", "N", "up"), ("c-plus", "M15", "W", "up"), ("c-turn", "O15", "E", "up")]
    return table(cards, {0: ["c-flip"], 1: ["m-flip"]})


def dependent():
    """Return a table where Ana's Turn rotates her own Plus: which acts first decides who gains the point."""
    cards = [FOOD, ("m-turn", "L15", "N", "up"), ("c-plus", "M15", "W", "up"), ("c-turn", "M14", "S", "up")]
    return table(cards, {0: ["c-flip"], 1: ["m-flip"]})


def test_cards_whose_order_changes_nothing_act_by_themselves_when_the_player_asks_for_it() -> None:
    state = independent()
    events = GAME.apply(state, 0, {"type": "play", "card": "c-flip", "cell": "N16", "facing": "S", "rest": True})
    autos = [e for e in events if e.kind == "auto"]
    assert sorted(e.data["card"] for e in autos) == ["c-plus", "c-turn"] and state.current == 1
    assert [GAME.describe(e, NAMES) for e in autos] == ["", ""]  # what they did is told, not that they acted
    assert state.stash[1] == 7, "Bob's Turn was given a point by Ana's Plus"


def test_without_rest_the_player_still_chooses_every_activation() -> None:
    state = independent()
    GAME.apply(state, 0, {"type": "play", "card": "c-flip", "cell": "N16", "facing": "S"})
    assert GAME.mid_turn(state, 0)
    assert sorted(a["card"] for a in GAME.legal_actions(state, 0)) == ["c-plus", "c-turn"]


def test_cards_whose_order_decides_who_scores_are_left_to_the_player() -> None:
    state = dependent()
    GAME.apply(state, 0, {"type": "play", "card": "c-flip", "cell": "N16", "facing": "S", "rest": True})
    assert GAME.mid_turn(state, 0) and order_matters(state, 0)
    plus_first = dependent()
    GAME.apply(plus_first, 0, {"type": "play", "card": "c-flip", "cell": "N16", "facing": "S"})
    GAME.apply(plus_first, 0, {"type": "activate", "card": "c-plus"})
    turn_first = dependent()
    GAME.apply(turn_first, 0, {"type": "play", "card": "c-flip", "cell": "N16", "facing": "S"})
    GAME.apply(turn_first, 0, {"type": "activate", "card": "c-turn"})
    assert plus_first.stash != turn_first.stash, "the two orders really end differently"
