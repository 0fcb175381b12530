"""Play whole games between bots: they finish, for every game and player count, and the same seeds replay."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from ai import choose_action
from engine.registry import get
from tests.ai.helpers import CONFIGS, config_id


def play(key: str, players: int, options: dict[str, Any], levels: list[str], seed: int) -> list[int]:
    """Play a game where seat i is the bot of levels[i]; return the winners."""
    game = get(key)
    state = game.new_game(players, options, seed)
    moves = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = choose_action(key, game.view(state, seat), seat, levels[seat], seed + moves, iterations=6)
        game.apply(state, seat, action)
        moves += 1
        assert moves < 500
    return game.outcome(state).winners


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_easy_bots_finish_a_game(config: tuple[str, int, dict[str, Any]]) -> None:
    key, players, options = config
    assert play(key, players, options, ["easy"] * players, 1)


@pytest.mark.parametrize("key", ["fish", "tank", "flippers"])
def test_hard_and_easy_bots_finish_a_game(key: str) -> None:
    assert play(key, 2, {}, ["hard", "easy"], 2)


@pytest.mark.parametrize("key", ["fish", "tank", "flippers"])
def test_same_arguments_give_the_same_move(key: str) -> None:
    game = get(key)
    rng = random.Random(3)
    state = game.new_game(3, {}, 3)
    for _ in range(10):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    for level in ("easy", "hard"):
        picks = {repr(choose_action(key, view, seat, level, 8, iterations=50)) for _ in range(3)}
        assert len(picks) == 1


def test_bots_run_side_by_side_in_threads() -> None:
    game = get("tank")
    jobs = []
    for seed in range(4):
        state = game.new_game(2 + seed % 3, {}, seed)
        seat = game.to_act(state)[0]
        jobs.append(("tank", game.view(state, seat), seat, "hard", seed))
    alone = [choose_action(*job, iterations=15) for job in jobs]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda job: choose_action(*job, iterations=15), jobs))
    assert together == alone
