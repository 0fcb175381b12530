"""Check choose_action's contract: levels, errors, and the time budget."""

from __future__ import annotations

import random
import time

import pytest

from ai import LEVELS, analyse, choose_action
from engine.registry import get
from tests.ai.helpers import positions


def test_levels() -> None:
    assert LEVELS == ("easy", "hard")


def test_unknown_level_or_game_is_refused() -> None:
    game = get("fish")
    view = game.view(game.new_game(2, {}, 1), 0)
    with pytest.raises(ValueError, match="level"):
        choose_action("fish", view, 0, "expert", 1)
    with pytest.raises(KeyError):
        choose_action("chess", view, 0, "easy", 1)


def test_a_seat_with_nothing_to_do_is_refused() -> None:
    game = get("fish")
    state = game.new_game(2, {}, 1)
    with pytest.raises(ValueError, match="nothing to do"):
        choose_action("fish", game.view(state, 1), 1, "easy", 1)


@pytest.mark.parametrize("key", ["fish", "tank", "flippers"])
def test_hard_bot_keeps_to_its_time_budget(key: str) -> None:
    game = get(key)
    rng = random.Random(4)
    state = game.new_game(2, {}, 4)
    for _ in range(5):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = game.to_act(state)[0]
    start = time.perf_counter()
    action = choose_action(key, game.view(state, seat), seat, "hard", 1, budget_s=0.15)
    assert time.perf_counter() - start < 0.5
    assert action in game.legal_actions(state, seat)


def test_the_only_legal_action_comes_back_without_searching() -> None:
    # Flippers applies a lone legal action by itself, so a forced move is looked for in Fish.
    game = get("fish")
    state, seat = next(
        (state, seat)
        for state, seat in positions("fish", 2, {}, 1, every=1)
        if len(game.legal_actions(state, seat)) == 1
    )
    start = time.perf_counter()
    assert [choose_action("fish", game.view(state, seat), seat, "hard", 1, budget_s=5)] == game.legal_actions(
        state, seat
    )
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("key", ["fish", "tank", "flippers"])
def test_analyse_ranks_legal_moves_and_leads_with_the_hard_choice(key: str) -> None:
    game = get(key)
    state, seat = next(
        (state, seat) for state, seat in positions(key, 3, {}, 2, every=3) if len(game.legal_actions(state, seat)) > 2
    )
    view = game.view(state, seat)
    candidates = analyse(key, view, seat, 7, iterations=120)
    legal = game.legal_actions(state, seat)
    assert len(candidates) >= 2
    assert all(c.action in legal for c in candidates)
    assert len({repr(c.action) for c in candidates}) == len(candidates)
    assert all(0.0 <= c.win_rate <= 1.0 and c.visits >= 0 for c in candidates)
    assert candidates[0].visits == max(c.visits for c in candidates)
    assert candidates[0].action == choose_action(key, view, seat, "hard", 7, iterations=120)
