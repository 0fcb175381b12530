"""Properties that hold over thousands of seeded random games, resignations included."""

from __future__ import annotations

import json
import random
from typing import Any

from engine.tank import GAME
from engine.tank.cards import deck_for
from engine.tank.state import TankState
from tests.engine.tank.helpers import play

ROUNDS = {2: 4, 3: 3, 4: 4, 5: 5}
GAMES = 2000
PUBLIC_VIEW_GAMES = 250
ROUND_TRIP_GAMES = 100
SEAT_VIEW_GAMES = 100
CONTAINERS = (dict, list)


def _ids(view: Any, found: set[str] | None = None) -> set[str]:
    """Return every "id" value of every object anywhere in a view (card faces are the objects with ids)."""
    found = set() if found is None else found
    values = view.values() if type(view) is dict else view
    if type(view) is dict and type(view.get("id")) is str:
        found.add(view["id"])
    for value in values:
        if type(value) in CONTAINERS:
            _ids(value, found)
    return found


def _random_game(seed: int, check: Any) -> TankState:
    """Play one random game (every fifth with a resignation) calling `check` after each step."""
    rng = random.Random(seed)
    players = 2 + seed % 4
    state = GAME.new_game(players, {}, seed)
    quit_at = rng.randrange(60) if seed % 5 == 0 else -1
    step = 0
    while not GAME.is_over(state):
        if step == quit_at:
            GAME.resign(state, rng.randrange(players))
        else:
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        step += 1
        check(state)
    return state


def test_every_card_is_always_in_exactly_one_place_and_games_end_after_the_right_rounds() -> None:
    sizes = {n: len(deck_for(n)) for n in ROUNDS}

    def check(state: TankState) -> None:
        places = state.deck + [c for c in state.grid if c is not None] + state.discards
        for hand in state.hands:
            places += hand
        assert len(places) == len(set(places)) == sizes[state.players]

    for seed in range(GAMES):
        state = _random_game(seed, check)
        result = GAME.outcome(state)
        assert result.winners
        assert not any(state.resigned[s] for s in result.winners)
        if not any(state.resigned):
            assert state.round == ROUNDS[state.players]
            assert not state.groups and all(c is None for c in state.grid)


def test_public_views_never_contain_a_held_or_discarded_card() -> None:
    def check(state: TankState) -> None:
        public = _ids(GAME.view(state, None))
        if GAME.is_over(state):
            assert not public & set(state.discards)
        else:
            assert not public & set(state.discards).union(*state.hands)
            assert public == {c for c in state.grid if c is not None}

    for seed in range(PUBLIC_VIEW_GAMES):
        state = _random_game(seed, check)
        final = json.loads(json.dumps(GAME.view(state, None)))["final"]
        assert [len(a) for a in final["aquariums"]] == [len(h) for h in state.hands]


def test_a_seat_view_never_shows_another_seats_aquarium() -> None:
    def check(state: TankState) -> None:
        if GAME.is_over(state):
            return
        seat = (state.round + len(state.discards)) % state.players
        seen = _ids(GAME.view(state, seat))
        others = set().union(*(h for s, h in enumerate(state.hands) if s != seat))
        assert not seen & others
        assert set(state.hands[seat]) <= seen

    for seed in range(SEAT_VIEW_GAMES):
        _random_game(seed, check)


def test_json_round_trip_at_every_step() -> None:
    def check(state: TankState) -> None:
        data = GAME.dump(state)
        again = GAME.load(json.loads(json.dumps(data)))
        assert GAME.dump(again) == data
        assert GAME.to_act(again) == GAME.to_act(state)
        for seat in GAME.to_act(state):
            assert GAME.legal_actions(again, seat) == GAME.legal_actions(state, seat)

    for seed in range(ROUND_TRIP_GAMES):
        _random_game(seed, check)


def test_random_games_without_resignations_always_finish_all_rounds() -> None:
    for seed in range(200):
        players = 2 + seed % 4
        state = GAME.new_game(players, {}, seed)
        log = play(state, random.Random(seed))
        assert sum(e.kind == "leftover" for e in log) >= ROUNDS[players]
        starts = [e.data["round"] for e in log if e.kind == "round_start"]
        assert starts == list(range(2, ROUNDS[players] + 1))
