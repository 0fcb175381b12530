"""Check the bot benchmark's arithmetic and that one short match plays through."""

from __future__ import annotations

import random

import pytest

from ai import bots
from ai.easy import score_actions
from bench.ai import play, wilson
from bench.ladder import greedy_choice, matches
from bench.regret import oracle
from bench.thinking import spots
from engine.registry import get


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson(15, 20)
    assert low < 0.75 < high
    assert wilson(20, 20)[1] == pytest.approx(1.0)
    assert wilson(0, 20)[0] == pytest.approx(0.0)


def test_a_match_between_easy_and_random_players_finishes() -> None:
    match = play("fish", ("easy", "random"), 2, 1, 0.0, None)
    assert match.result in (0.0, 0.5, 1.0)
    assert match.times["easy"]
    assert match.times["random"] == []


def test_the_greedy_level_plays_a_move_the_easy_score_likes_best() -> None:
    game = get("tank")
    state = game.new_game(2, {}, 3)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    action = greedy_choice("tank", view, seat, 1)
    ai = bots()["tank"]
    actions = game.legal_actions(state, seat)
    scores = score_actions(ai, ai.determinize(view, seat, random.Random(1)), seat, actions)
    assert action in actions and scores[actions.index(action)] == max(scores)


def test_the_tables_thinking_at_once_take_every_game_in_turn() -> None:
    assert [key for key, _view, _seat in spots(5)] == ["fish", "tank", "flippers", "fish", "tank"]


def test_a_full_table_replays_every_deal_in_each_seat_when_asked() -> None:
    rotating = matches("flippers", ("hard", "ucb"), 6, 3, 10)
    assert rotating == [(4, 10), (5, 11), (0, 12)]
    every = matches("flippers", ("hard", "ucb"), 6, 2, 10, every_seat=True)
    assert every == [(seat, deal) for deal in (10, 11) for seat in range(6)]
    assert matches("fish", ("easy", "greedy"), 2, 2, 0) == [(0, 0), (1, 0), (0, 1), (1, 1)]


def test_the_regret_oracle_plays_every_move_in_the_same_worlds() -> None:
    game = get("flippers")
    state = game.new_game(2, {}, 3)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    actions = game.legal_actions(state, seat)[:3]
    values = oracle("flippers", view, seat, actions, 4, 7)
    assert len(values) == 3
    assert all(0.0 <= v <= 1.0 for v in values)
    assert values == oracle("flippers", view, seat, actions, 4, 7)
    same = oracle("flippers", view, seat, [actions[0], actions[0]], 4, 7)
    assert same[0] == same[1]  # one move in the same worlds with the same luck scores the same
