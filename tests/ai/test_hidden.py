"""Prove the bots decide from the seat's view alone: states that differ only in hidden cards get the same move."""

from __future__ import annotations

import copy
import inspect
import random
from typing import Any

import pytest

from ai import choose_action
from ai.flippers import FlippersAI
from engine.flippers.state import FlippersState
from engine.registry import get
from engine.tank.cards import FISH_CARDS
from engine.tank.state import TankState


def reach(key: str, players: int, seed: int, steps: int) -> Any:
    """Return the state after `steps` random actions of a seeded game."""
    game = get(key)
    rng = random.Random(seed)
    state = game.new_game(players, {}, seed)
    for _ in range(steps):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def deal(piles: list[list[str]], rng: random.Random) -> None:
    """Shuffle the cards of several piles together and deal them back in the same sizes, in place."""
    cards = [c for pile in piles for c in pile]
    rng.shuffle(cards)
    for pile in piles:
        size = len(pile)
        pile[:] = cards[:size]
        del cards[:size]


def rehide_tank(state: TankState, seat: int, rng: random.Random) -> TankState:
    """Return a copy with the deck reshuffled and other seats' private Gourami discards chosen anew.

    Everything else a seat watched happen: the groups each seat took and the groups left over.
    """
    other = copy.deepcopy(state)
    rng.shuffle(other.deck)
    for s in range(other.players):
        gone = other.own_discards[s]
        if s == seat or not gone:
            continue
        fish = [c for c in other.hands[s] + gone if c in FISH_CARDS]
        keep = other.hands[s] + gone
        chosen = rng.sample(fish, len(gone))
        other.hands[s] = [c for c in keep if c not in chosen]
        for old, new in zip(gone, chosen, strict=True):
            other.discards[other.discards.index(old)] = new
        other.own_discards[s] = chosen
    return other


def rehide_flippers(state: FlippersState, seat: int, rng: random.Random) -> FlippersState:
    """Return a copy whose own deck is reshuffled and whose opponents' hands, decks and discards are dealt anew."""
    other = copy.deepcopy(state)
    for s in range(other.players):
        if s == seat:
            rng.shuffle(other.decks[s])
        else:
            deal([other.hands[s], other.decks[s], other.discards[s]], rng)
    return other


CASES = [
    ("tank", 2, 3, rehide_tank),
    ("tank", 4, 9, rehide_tank),
    ("flippers", 2, 4, rehide_flippers),
    ("flippers", 5, 7, rehide_flippers),
    ("flippers", 3, 24, rehide_flippers),
]


@pytest.mark.parametrize(("key", "players", "steps", "rehide"), CASES)
def test_states_that_differ_only_in_hidden_cards_get_the_same_move(
    key: str, players: int, steps: int, rehide: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(FlippersAI, "infer", True)  # the player that reads the most of the view: what others played
    game = get(key)
    changed = 0
    for seed in range(4):
        state = reach(key, players, seed, steps)
        seat = game.to_act(state)[0]
        other = rehide(state, seat, random.Random(seed))
        game.load(game.dump(other))
        if game.dump(other) == game.dump(state):
            continue
        changed += 1
        view = game.view(state, seat)
        assert game.view(other, seat) == view
        if key == "flippers" and steps > 20:
            assert sum(r is not None for r in view["last_plays"]) >= 2, "the view carries who played what, and when"
        for level in ("easy", "hard"):
            first = choose_action(key, view, seat, level, seed, iterations=25)
            second = choose_action(key, game.view(other, seat), seat, level, seed, iterations=25)
            assert first == second
    assert changed >= 3


def test_choose_action_receives_only_the_view() -> None:
    params = inspect.signature(choose_action).parameters
    assert list(params) == [
        "game_key",
        "view",
        "seat",
        "level",
        "seed",
        "budget_s",
        "iterations",
        "virtual",
        "deadline",
    ]
    assert params["iterations"].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize("key", ["fish", "tank", "flippers"])
def test_choose_action_leaves_the_view_untouched(key: str) -> None:
    state = reach(key, 3, 2, 8)
    game = get(key)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    before = copy.deepcopy(view)
    for level in ("easy", "hard"):
        choose_action(key, view, seat, level, 1, iterations=30)
    assert view == before
