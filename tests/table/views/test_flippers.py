"""The Flippers table view shows a seat its own hand only, a spectator none, and the engine's own legal actions."""

from __future__ import annotations

import json
import random

from engine.flippers import GAME
from engine.flippers.state import FlippersState
from i18n import using
from table.views.flippers import table_view

NAMES = ["Ana", "Bo", "Cy", "Dee"]


def played(players: int = 4, steps: int = 20, seed: int = 3, teams: bool = False) -> FlippersState:
    """Return a game after `steps` random legal actions."""
    state = GAME.new_game(players, {"teams": teams}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seats = GAME.to_act(state)
        if not seats:
            break
        GAME.apply(state, seats[0], rng.choice(GAME.legal_actions(state, seats[0])))
    return state


def test_every_seat_gets_exactly_the_engines_legal_actions_through_every_phase() -> None:
    state = GAME.new_game(4, {}, 8)
    rng = random.Random(8)
    phases = set()
    while GAME.to_act(state):
        phases.add(state.phase)
        for seat in range(4):
            assert table_view(GAME, state, seat, NAMES, None)["actions"] == GAME.legal_actions(state, seat)
        assert table_view(GAME, state, None, NAMES, None)["actions"] == []
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert phases == {"leaders", "setup", "play"}


def test_the_cells_a_hand_card_lights_are_the_cells_it_may_be_played_on() -> None:
    state = played(steps=12)
    seat = GAME.to_act(state)[0]
    view = table_view(GAME, state, seat, NAMES, None)
    assert state.phase == "play" and state.played is None
    for card in view["hand"]:
        legal = {a["cell"] for a in GAME.legal_actions(state, seat) if a["card"] == card["id"]}
        assert set(card["cells"]) == legal and legal
        assert {s["cell"] for s in view["open"]} >= legal


def test_the_leader_spots_are_the_engines_and_only_the_placing_seat_gets_them() -> None:
    state = GAME.new_game(3, {}, 1)
    seat = GAME.to_act(state)[0]
    leader = table_view(GAME, state, seat, NAMES, None)["leader"]
    spots = {(a["cell"], a["facing"]) for a in GAME.legal_actions(state, seat)}
    assert {(cell, d) for cell, ds in leader["spots"].items() for d in ds} == spots
    assert table_view(GAME, state, (seat + 1) % 3, NAMES, None)["leader"] is None


def test_a_seat_sees_its_own_hand_and_a_spectator_sees_no_hand() -> None:
    state = played(steps=12)
    for seat in range(4):
        view = table_view(GAME, state, seat, NAMES, None)
        assert [c["id"] for c in view["hand"]] == state.hands[seat]
    spectator = table_view(GAME, state, None, NAMES, None)
    assert spectator["hand"] is None and spectator["leader"] is None and spectator["discard"] is None


def test_another_seats_hand_and_deck_change_nothing_a_seat_or_spectator_sees() -> None:
    state = played(steps=12)
    other = 2
    swapped = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    swapped.hands[other][0], swapped.decks[other][0] = swapped.decks[other][0], swapped.hands[other][0]
    assert swapped.hands[other] != state.hands[other]
    for seat in (None, 0, 1, 3):
        assert table_view(GAME, state, seat, NAMES, None) == table_view(GAME, swapped, seat, NAMES, None)


def test_setup_discards_are_offered_only_to_the_seats_still_choosing() -> None:
    state = played(steps=4)
    assert state.phase == "setup"
    for seat in range(4):
        view = table_view(GAME, state, seat, NAMES, None)
        assert view["discard"]["count"] == 2
        assert view["discard"]["button"] == "Discard 2 cards"
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert table_view(GAME, state, 0, NAMES, None)["discard"] is None
    assert table_view(GAME, state, 0, NAMES, None)["actions"] == []
    with using("es"):
        assert table_view(GAME, state, 1, NAMES, None)["discard"]["button"] == "Descartar 2 cartas"


def test_cards_to_activate_are_offered_to_the_seat_whose_turn_it_is_only() -> None:
    state = GAME.new_game(4, {}, 3)
    rng = random.Random(1)
    while not (state.phase == "play" and state.played is not None):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    seat = state.current
    view = table_view(GAME, state, seat, NAMES, None)
    assert [a["id"] for a in view["activate"]] == [a["card"] for a in GAME.legal_actions(state, seat)]
    assert {c["id"] for c in view["cards"] if c["due"]} == {a["id"] for a in view["activate"]}
    assert table_view(GAME, state, (seat + 1) % 4, NAMES, None)["activate"] == []


def test_team_up_sums_partners_and_the_last_move_lights_its_cells() -> None:
    state = GAME.new_game(4, {"teams": True}, 2)
    seat = GAME.to_act(state)[0]
    action = GAME.legal_actions(state, seat)[0]
    events = [e.to_json() for e in GAME.apply(state, seat, action)]
    view = table_view(GAME, state, None, NAMES, events)
    assert [s["seats"] for s in view["sides"]] == [[0, 2], [1, 3]]
    assert sum(s["points"] for s in view["sides"]) == sum(s["points"] for s in view["seats"])
    assert view["last"]["seat"] == seat and action["cell"] in view["last"]["cells"]


def test_private_draws_in_last_reach_only_their_seat() -> None:
    state = played(steps=3)
    seat = GAME.to_act(state)[0]
    events = [e.to_json() for e in GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])]
    assert any(e["private_to"] is not None for e in events)
    spectator = json.dumps(table_view(GAME, state, None, NAMES, events)["last"])
    for event in events:
        if event["private_to"] is not None:
            assert all(card not in spectator for card in event["data"].get("cards", []))
