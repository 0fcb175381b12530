"""The tank table view shows a seat its own aquarium only, a spectator none, and the engine's own legal actions."""

from __future__ import annotations

import json
import random

from engine.tank import GAME
from engine.tank.state import TankState
from i18n import using
from table.views.tank import table_view

NAMES = ["Ana", "Bo", "Cy"]


def _discarding(seed: int) -> TankState | None:
    """Return a 3-player game paused on a Gourami discard with two fish or more to choose from, if the seed has one."""
    state = GAME.new_game(3, {}, seed)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        if state.phase == "discard" and len(GAME.discard_options(state, seat)) >= 2:
            return state
        actions = [a for a in GAME.legal_actions(state, seat) if a["type"] != "keep"] or GAME.legal_actions(state, seat)
        GAME.apply(state, seat, rng.choice(actions))
    return None


def discarding() -> TankState:
    """Return the first seeded game that pauses on a Gourami discard with a choice."""
    return next(s for s in map(_discarding, range(200)) if s is not None)


def test_the_seat_to_act_gets_exactly_the_engines_legal_actions_and_the_others_none() -> None:
    state = GAME.new_game(3, {}, 5)
    rng = random.Random(5)
    for _ in range(12):
        acting = GAME.to_act(state)[0]
        for seat in range(3):
            view = table_view(GAME, state, seat, NAMES, None)
            assert view["actions"] == GAME.legal_actions(state, seat)
            assert bool(view["actions"]) == (seat == acting)
        assert table_view(GAME, state, None, NAMES, None)["actions"] == []
        GAME.apply(state, acting, rng.choice(GAME.legal_actions(state, acting)))


def test_the_cuts_drawn_are_the_legal_splits_and_marked_legal_only_for_the_seat_to_act() -> None:
    state = GAME.new_game(3, {}, 9)
    seat = GAME.to_act(state)[0]
    for viewer in (seat, (seat + 1) % 3, None):
        view = table_view(GAME, state, viewer, NAMES, None)
        drawn = [{"type": "split", "group": g["letter"], "line": c["line"]} for g in view["groups"] for c in g["cuts"]]
        assert drawn == GAME.legal_actions(state, seat)
        assert all(c["legal"] == (viewer == seat) for g in view["groups"] for c in g["cuts"])
        assert all(c["label"].startswith("Split group 1: ") for g in view["groups"] for c in g["cuts"])
        assert bool(view["prompt"]) == (viewer == seat) and view["status"]


def test_a_seat_sees_its_own_aquarium_and_a_spectator_sees_none() -> None:
    state = discarding()
    seat = GAME.to_act(state)[0]
    mine = table_view(GAME, state, seat, NAMES, None)["mine"]
    shown = sorted(c["id"] for kind in mine["kinds"] for c in kind["cards"])
    assert shown == sorted(state.hands[seat])
    offered = sorted(c["id"] for k in mine["kinds"] for c in k["cards"] if c["discard"])
    assert offered == sorted(GAME.discard_options(state, seat))
    spectator = table_view(GAME, state, None, NAMES, None)
    assert spectator["mine"] is None and spectator["actions"] == []


def test_a_gourami_discard_changes_nothing_another_seat_or_a_spectator_sees_but_the_count() -> None:
    state = discarding()
    seat = GAME.to_act(state)[0]
    first, second = GAME.discard_options(state, seat)[:2]
    views = []
    for card in (first, second):
        copy = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        events = GAME.apply(copy, seat, {"type": "discard", "card": card})
        last = [e.to_json() for e in events]
        views.append({s: table_view(GAME, copy, s, NAMES, last) for s in (None, *range(3)) if s != seat})
        own = table_view(GAME, copy, seat, NAMES, last)
        assert [c["id"] for c in own["mine"]["discards"]][-1] == card
    assert views[0] == views[1]


def test_takes_are_shown_openly_for_every_seat() -> None:
    state = GAME.new_game(3, {}, 2)
    rng = random.Random(2)
    while state.phase != "discard" and sum(map(len, state.hands)) < 4:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    view = table_view(GAME, state, None, NAMES, None)
    for row in view["seats"]:
        assert sorted(c["id"] for c in row["taken"]) == sorted(
            state.hands[row["seat"]] + state.own_discards[row["seat"]]
        )


def test_the_last_split_is_highlighted_and_told_in_the_players_language() -> None:
    state = GAME.new_game(3, {}, 4)
    seat = GAME.to_act(state)[0]
    action = GAME.legal_actions(state, seat)[0]
    events = GAME.apply(state, seat, action)
    with using("de"):
        view = table_view(GAME, state, None, NAMES, [e.to_json() for e in events])
    assert view["last"]["seat"] == seat
    assert view["last"]["line"] == action["line"]
    assert view["last"]["groups"] == ["A", "B"]
    assert NAMES[seat] in view["last"]["lines"][0]
    assert view["heading"].startswith("Runde")


def test_a_private_event_in_last_is_shown_only_to_its_seat() -> None:
    state = discarding()
    seat = GAME.to_act(state)[0]
    card = GAME.discard_options(state, seat)[0]
    events = [e.to_json() for e in GAME.apply(state, seat, {"type": "discard", "card": card})]
    other = (seat + 1) % 3
    assert all(e.get("private_to") in (None, seat) for e in events)
    assert table_view(GAME, state, other, NAMES, events)["last"] == table_view(GAME, state, None, NAMES, events)["last"]


def test_every_aquarium_is_shown_to_everyone_once_the_game_is_over_and_not_before() -> None:
    state = GAME.new_game(3, {}, 6)
    rng = random.Random(6)
    while not GAME.is_over(state):
        assert all(row["final_cards"] is None for row in table_view(GAME, state, None, NAMES, None)["seats"])
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    for viewer in (None, 0):
        view = table_view(GAME, state, viewer, NAMES, None)
        shown = [sorted(c["id"] for c in row["final_cards"]) for row in view["seats"]]
        assert shown == [sorted(hand) for hand in state.hands]
        assert all(row["score"].endswith(("point", "points")) for row in view["seats"])
