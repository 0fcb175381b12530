"""Check the Gourami discard step that follows a take."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.base import IllegalAction
from engine.tank import GAME
from engine.tank.grid import cells, size
from engine.tank.state import TankState
from tests.engine.tank.helpers import cards_of, finish_splits, give, place


def _ready(group_cards: list[str], hand: Sequence[str] = (), players: int = 4) -> tuple[TankState, int, str]:
    """Reach the take phase and put `group_cards` in the smallest group that holds them all."""
    state = GAME.new_game(players, {}, 12)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    fits = [(size(r), n) for n, r in state.groups.items() if size(r) >= len(group_cards)]
    name = min(fits)[1]
    for (r, c), card in zip(cells(state.groups[name]), group_cards, strict=False):
        place(state, r * state.side + c, card)
    # Make sure no other Gourami sneaks into the group from the random deal.
    fillers = iter(c for c in cards_of("molly", players) if c in state.deck)
    for r, c in list(cells(state.groups[name]))[len(group_cards) :]:
        if state.grid[r * state.side + c].startswith("gourami"):
            place(state, r * state.side + c, next(fillers))
    for card in hand:
        if card in state.grid:
            place(state, state.grid.index(card), next(fillers))
    give(state, seat, list(hand))
    return state, seat, name


def test_taking_a_gourami_keeps_the_turn_for_a_discard_or_keep() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "guppy-1"], ["molly-7", "chest"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    assert GAME.to_act(state) == [seat]
    assert state.phase == "discard"
    legal = GAME.legal_actions(state, seat)
    assert {"type": "keep"} in legal
    offered = {a["card"] for a in legal if a["type"] == "discard"}
    assert "molly-7" in offered and "guppy-1" in offered
    assert gourami not in offered
    assert "chest" not in offered


def test_discarding_an_earlier_fish_moves_it_face_down_and_passes_the_turn() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami], ["molly-7"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    pile = len(state.discards)
    events = GAME.apply(state, seat, {"type": "discard", "card": "molly-7"})
    assert "molly-7" not in state.hands[seat]
    assert state.discards[-1] == "molly-7" and len(state.discards) == pile + 1
    assert GAME.to_act(state) != [seat]
    public = [e for e in events if e.private_to is None]
    assert [e.kind for e in public] == ["discard"]
    assert "molly-7" not in str([e.data for e in public])
    assert GAME.view(state, None)["seats"][seat]["discarded"] == 1
    assert [c["id"] for c in GAME.view(state, seat)["my_discards"]] == ["molly-7"]


def test_a_fish_just_taken_other_than_the_gourami_may_be_discarded() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "angelfish-1"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    GAME.apply(state, seat, {"type": "discard", "card": "angelfish-1"})
    assert "angelfish-1" in state.discards


def test_cannot_discard_the_gourami_that_allowed_it() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "guppy-1"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match="Gourami"):
        GAME.apply(state, seat, {"type": "discard", "card": gourami})
    assert GAME.dump(state) == before


def test_cannot_discard_the_treasure_chest() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "chest", "guppy-1"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match="not a fish"):
        GAME.apply(state, seat, {"type": "discard", "card": "chest"})
    assert GAME.dump(state) == before


def test_cannot_discard_a_card_you_do_not_hold() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "guppy-1"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    before = GAME.dump(state)
    for bad in ("molly-2", "no-such-card", 7, None):
        with pytest.raises(IllegalAction, match="do not hold"):
            GAME.apply(state, seat, {"type": "discard", "card": bad})
    assert GAME.dump(state) == before


def test_two_gouramis_allow_two_discards_and_neither_can_go() -> None:
    g1, g2, old = cards_of("gourami")[:3]
    state, seat, group = _ready([g1, g2, "guppy-1"], [old, "molly-7"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    offered = {a["card"] for a in GAME.legal_actions(state, seat) if a["type"] == "discard"}
    assert old in offered  # a Gourami from an earlier take is an ordinary fish now
    assert g1 not in offered and g2 not in offered
    assert GAME.view(state, None)["pending_discards"] == 2
    GAME.apply(state, seat, {"type": "discard", "card": old})
    assert GAME.to_act(state) == [seat]
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, {"type": "discard", "card": g2})
    GAME.apply(state, seat, {"type": "discard", "card": "molly-7"})
    assert GAME.to_act(state) != [seat]
    assert state.own_discards[seat] == [old, "molly-7"]


def test_keep_ends_the_discards_at_once() -> None:
    g1, g2 = cards_of("gourami")[:2]
    state, seat, group = _ready([g1, g2, "guppy-1"], ["molly-7"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    events = GAME.apply(state, seat, {"type": "keep"})
    assert events[0].kind == "keep"
    assert GAME.to_act(state) != [seat]
    assert "molly-7" in state.hands[seat] and not state.own_discards[seat]


def test_no_discard_step_when_nothing_could_be_discarded() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "chest"], players=5)
    assert state.hands[seat] == [] and size(state.groups[group]) == 2
    GAME.apply(state, seat, {"type": "take", "group": group})
    assert state.phase == "take"
    assert GAME.to_act(state) != [seat]


def test_discard_step_ends_when_no_fish_is_left_to_discard() -> None:
    g1, g2 = cards_of("gourami")[:2]
    state, seat, group = _ready([g1, g2, "guppy-1"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    GAME.apply(state, seat, {"type": "discard", "card": "guppy-1"})
    assert GAME.to_act(state) != [seat]


def test_discard_and_keep_are_refused_outside_the_gourami_step() -> None:
    state, seat, _ = _ready(["guppy-1"], ["molly-7"])
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match="no Gourami discards"):
        GAME.apply(state, seat, {"type": "discard", "card": "molly-7"})
    with pytest.raises(IllegalAction, match="no Gourami discards"):
        GAME.apply(state, seat, {"type": "keep"})
    assert GAME.dump(state) == before


def test_other_actions_wait_until_the_discard_step_is_done() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "guppy-1"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    other = next(iter(state.groups))
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match="First discard"):
        GAME.apply(state, seat, {"type": "take", "group": other})
    assert GAME.dump(state) == before


def test_only_the_seat_that_took_the_gourami_may_discard() -> None:
    gourami = cards_of("gourami")[0]
    state, seat, group = _ready([gourami, "guppy-1"], ["molly-7"])
    GAME.apply(state, seat, {"type": "take", "group": group})
    other = (seat + 1) % state.players
    give(state, other, ["molly-6"])
    before = GAME.dump(state)
    for action in ({"type": "discard", "card": "molly-6"}, {"type": "keep"}):
        with pytest.raises(IllegalAction, match="not your turn"):
            GAME.apply(state, other, action)
    assert GAME.dump(state) == before
    assert GAME.legal_actions(state, other) == []
