"""Check invariants over thousands of seeded random games of every size."""

from __future__ import annotations

import json
import random

from engine.flippers import GAME
from engine.flippers.cards import FOOD_IDS, SUPPLY_TOTAL, setup_rule, team_cards
from engine.flippers.powers import blocker, marked_cells, marker_cell
from engine.flippers.state import LEADERS, OVER, FlippersState
from engine.flippers.table import DIRECTIONS, frontier, step
from tests.engine.flippers.helpers import random_action

SETUPS = [(2, False), (3, False), (4, False), (4, True), (5, False), (6, False), (6, True)]


def every_card_once(state: FlippersState) -> bool:
    """Return True when each card of the game is in exactly one place."""
    places = [*state.where, *state.unused_food]
    for seat in range(state.players):
        places += state.hands[seat] + state.decks[seat] + state.discards[seat]
    expected = {c for seat in range(state.players) for c in team_cards(seat)} | set(FOOD_IDS)
    unplaced = {
        team_cards(seat)[0]
        for seat in range(state.players)
        if (state.phase in (LEADERS, OVER) or state.resigned[seat]) and team_cards(seat)[0] not in state.where
    }
    return len(places) == len(expected - unplaced) and set(places) == expected - unplaced


def run(seed: int, on_step=None, resign_chance: float = 0.0) -> FlippersState:
    """Play one random game, calling `on_step(state)` after every action."""
    players, teams = SETUPS[seed % len(SETUPS)]
    rng = random.Random(seed)
    state = GAME.new_game(players, {"teams": teams}, seed)
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        if rng.random() < resign_chance:
            GAME.resign(state, seat)
        else:
            GAME.apply(state, seat, random_action(state, seat, rng))
        assert sum(state.stash) + state.supply == SUPPLY_TOTAL
        if on_step:
            on_step(state)
    return state


def test_points_are_conserved_cards_stay_unique_and_games_end_with_every_card_played() -> None:
    for seed in range(1000):
        state = run(seed)
        assert every_card_once(state)
        discard, food = setup_rule(state.players)
        assert all(not h and not d for h, d in zip(state.hands, state.decks, strict=True))
        assert len(state.cells) == food + state.players * (9 - discard)
        assert GAME.to_act(state) == []
        assert len(GAME.outcome(state).winners) >= 1


def test_json_round_trip_and_card_places_hold_at_every_step() -> None:
    def check(state: FlippersState) -> None:
        data = GAME.dump(state)
        assert GAME.dump(GAME.load(json.loads(json.dumps(data)))) == data
        assert every_card_once(state)

    for seed in range(60):
        run(seed, check, resign_chance=0.003)


def test_public_views_never_show_a_hand_or_a_discard() -> None:
    def check(state: FlippersState) -> None:
        secret = [f'"{c}"' for seat in range(state.players) for c in state.hands[seat] + state.discards[seat]]
        public = json.dumps(GAME.view(state, None))
        assert not any(cid in public for cid in secret)
        seat = state.turn % state.players
        own = GAME.view(state, seat)
        mine = {f'"{c}"' for c in state.hands[seat] + state.discards[seat]}
        others = json.dumps(own)
        assert not any(cid in others for cid in secret if cid not in mine)

    for seed in range(20):
        run(seed, check, resign_chance=0.003)


def test_resignations_keep_the_game_coherent() -> None:
    for seed in range(200):
        state = run(seed, resign_chance=0.03)
        assert every_card_once(state)
        winners = GAME.outcome(state).winners
        assert winners and not any(state.resigned[s] for s in winners)


def test_marker_lookups_and_open_cells_agree_with_their_one_by_one_definitions_in_every_position() -> None:
    engaged = 0

    def check(state: FlippersState) -> None:
        nonlocal engaged
        placed = [marker_cell(state, team) for team in range(state.players)]
        engaged += sum(cell is not None for cell in placed)
        assert marked_cells(state) == {cell for cell in placed if cell is not None}
        for cid, cell in state.where.items():
            assert blocker(state, cid) == next((team for team, spot in enumerate(placed) if spot == cell), None)
        touching = {step(cell, d) for cell in state.cells for d in DIRECTIONS} - set(state.cells)
        assert frontier(state.cells) == touching

    for seed in range(42):
        run(seed, check)
    assert engaged > 100
