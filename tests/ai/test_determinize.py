"""Check that sampled states keep everything the seat sees and stay valid games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai import bots
from engine.registry import get
from tests.ai.helpers import CONFIGS, config_id, positions


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_determinize_keeps_the_view_own_cards_and_legal_actions(config: tuple[str, int, dict[str, Any]]) -> None:
    key, players, options = config
    game = get(key)
    ai = bots()[key]
    checked = 0
    for seed in range(3):
        for state, seat in positions(key, players, options, seed, every=4):
            view = game.view(state, seat)
            sampled = ai.determinize(view, seat, random.Random(checked))
            assert game.view(sampled, seat) == view
            assert game.legal_actions(sampled, seat) == game.legal_actions(state, seat)
            assert game.dump(game.load(game.dump(sampled))) == game.dump(sampled)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("key", ["tank", "flippers"])
def test_determinize_samples_what_the_seat_cannot_see(key: str) -> None:
    game = get(key)
    ai = bots()[key]
    state = game.new_game(3, {}, 11)
    rng = random.Random(11)
    for _ in range(12):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    samples = [game.dump(ai.determinize(view, seat, random.Random(n))) for n in range(5)]
    assert len({repr(s) for s in samples}) > 1
    assert all(s["hands"][seat] == samples[0]["hands"][seat] for s in samples)


def test_tank_determinize_keeps_own_cards_and_deals_the_rest_in_public_counts() -> None:
    game = get("tank")
    ai = bots()["tank"]
    for state, seat in positions("tank", 3, {}, 4, every=5):
        view = game.view(state, seat)
        sampled = ai.determinize(view, seat, random.Random(1))
        assert sorted(sampled.hands[seat]) == sorted(state.hands[seat])
        assert sampled.own_discards[seat] == state.own_discards[seat]
        assert sampled.grid == state.grid
        assert sampled.groups == state.groups
        assert len(sampled.deck) == len(state.deck)
        hidden = [sampled.deck, sampled.discards, *(h for s, h in enumerate(sampled.hands) if s != seat)]
        truth = [state.deck, state.discards, *(h for s, h in enumerate(state.hands) if s != seat)]
        assert sorted(c for pile in hidden for c in pile) == sorted(c for pile in truth for c in pile)
        for other in range(state.players):
            assert len(sampled.hands[other]) == len(state.hands[other])
            assert len(sampled.own_discards[other]) == len(state.own_discards[other])


def test_flippers_determinize_keeps_own_hand_and_table() -> None:
    game = get("flippers")
    ai = bots()["flippers"]
    for state, seat in positions("flippers", 4, {}, 6, every=6):
        sampled = ai.determinize(game.view(state, seat), seat, random.Random(2))
        assert sampled.hands[seat] == state.hands[seat]
        assert sampled.discards[seat] == state.discards[seat]
        assert sorted(sampled.decks[seat]) == sorted(state.decks[seat])
        assert sampled.cells == state.cells
        assert (sampled.facing, sampled.face) == (state.facing, state.face)
        for other in range(state.players):
            assert len(sampled.hands[other]) == len(state.hands[other])
            assert len(sampled.decks[other]) == len(state.decks[other])


def test_fish_determinize_rebuilds_the_whole_board() -> None:
    game = get("fish")
    ai = bots()["fish"]
    for state, seat in positions("fish", 3, {}, 2, every=5):
        sampled = ai.determinize(game.view(state, seat), seat, random.Random(0))
        assert sampled.tiles == state.tiles
        assert sampled.penguins == state.penguins
        assert [sum(c) for c in sampled.collected] == [sum(c) for c in state.collected]
        assert game.outcome(sampled) == game.outcome(state)
