"""Check that both bots only ever choose legal actions, in positions of every game and player count."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai import choose_action
from engine.registry import get
from tests.ai.helpers import CONFIGS, config_id, positions

LEVELS = ("easy", "hard")


def assert_bots_play_legally(key: str, state: Any, seat: int, seed: int) -> None:
    """Ask both bots for a move from the seat's view and check the engine accepts it."""
    game = get(key)
    legal = game.legal_actions(state, seat)
    for level in LEVELS:
        action = choose_action(key, game.view(state, seat), seat, level, seed, iterations=12)
        assert action in legal, (level, action)
        game.apply(game.load(game.dump(state)), seat, action)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_bots_choose_legal_actions_in_random_positions(config: tuple[str, int, dict[str, Any]]) -> None:
    key, players, options = config
    checked = 0
    for seed in range(2):
        for state, seat in positions(key, players, options, seed, every=9):
            assert_bots_play_legally(key, state, seat, seed * 100 + checked)
            checked += 1
    assert checked >= 6


def test_bots_make_legal_gourami_discards() -> None:
    found = 0
    for seed in range(40):
        for state, seat in positions("tank", 2 + seed % 4, {}, seed, every=1):
            if state.phase == "discard":
                assert_bots_play_legally("tank", state, seat, seed)
                found += 1
                break
        if found >= 4:
            break
    assert found >= 4


def test_bots_make_legal_setup_discards_while_others_choose_too() -> None:
    game = get("flippers")
    state = game.new_game(4, {}, 3)
    while state.phase == "leaders":
        game.apply(state, state.current, game.legal_actions(state, state.current)[0])
    game.apply(state, 1, game.legal_actions(state, 1)[0])
    for seat in game.to_act(state):
        assert_bots_play_legally("flippers", state, seat, seat)


@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (6, True)])
def test_bots_place_their_leader_on_a_legal_cell(players: int, teams: bool) -> None:
    game = get("flippers")
    state = game.new_game(players, {"teams": teams}, 8)
    while state.phase == "leaders":
        seat = state.current
        assert_bots_play_legally("flippers", state, seat, seat)
        action = choose_action("flippers", game.view(state, seat), seat, "easy", seat, iterations=12)
        assert action["type"] == "leader"
        game.apply(state, seat, action)
    assert all(f"{t}-leader" in state.where for t in "cmewls"[:players])


@pytest.mark.parametrize("key", ["fish", "tank", "flippers"])
def test_bots_play_legally_after_a_resignation(key: str) -> None:
    game = get(key)
    rng = random.Random(5)
    state = game.new_game(4, {}, 5)
    for _ in range(6):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    game.resign(state, 2)
    for _ in range(8):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        assert_bots_play_legally(key, state, seat, 7)
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
