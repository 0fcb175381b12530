"""Check the Flippers easy player judges a play by the whole turn it opens, its activations included."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ai import bots, choose_action
from ai.base import action_key
from ai.easy import score_actions
from ai.flippers import finish_turn
from engine.flippers import GAME
from engine.flippers.state import PLAY
from tests.ai.helpers import positions


def turn_values(ai: Any, state: Any, seat: int, actions: list[dict[str, Any]]) -> list[float]:
    """Return the easy score of each play once the rest of its turn is activated greedily."""
    values = []
    for action in actions:
        after = ai.clone(state)
        GAME.apply(after, seat, action)
        values.append(finish_turn(ai, after, seat))
    return values


def telling_position() -> tuple[Any, int, set[Any]]:
    """Return a turn's start where the best play for the whole turn beats the best play for its own points by 2."""
    ai = bots()["flippers"]
    for seed in range(40):
        for state, seat in positions("flippers", 2, {}, seed, every=1):
            if state.phase != PLAY or state.played is not None:
                continue
            actions = GAME.legal_actions(state, seat)
            now = score_actions(ai, state, seat, actions)
            whole = turn_values(ai, state, seat, actions)
            greedy_best = max(whole[i] for i, s in enumerate(now) if s == max(now))
            if max(whole) >= greedy_best + 2:
                best = {action_key(a) for a, v in zip(actions, whole, strict=True) if v == max(whole)}
                return state, seat, best
    raise AssertionError("no position where the turn's activations change the best play")


def test_a_turn_that_ends_with_no_activation_left_is_judged_as_it_stands() -> None:
    ai = bots()["flippers"]
    for state, seat in positions("flippers", 3, {}, 2, every=4):
        if GAME.mid_turn(state, seat):
            after = ai.clone(state)
            value = finish_turn(ai, after, seat)
            assert GAME.mid_turn(state, seat)  # the position it was given is untouched
            assert isinstance(value, float)
        elif state.phase == PLAY:
            assert finish_turn(ai, state, seat) == ai.easy_score(state, seat)


def test_easy_plays_the_card_whose_activations_score_best_not_the_best_play_alone() -> None:
    # Before: easy drew its play by the points the play alone gave, so the turn's best play was a rare draw.
    state, seat, best = telling_position()
    view = GAME.view(state, seat)
    picks = Counter(action_key(choose_action("flippers", view, seat, "easy", n)) in best for n in range(20))
    assert picks[True] >= 15
