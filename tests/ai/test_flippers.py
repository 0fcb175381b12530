"""Check the Flippers easy player judges a play by its whole turn, and the hard player's playouts at 2 players."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ai import bots, choose_action
from ai.base import action_key, actor
from ai.easy import score_actions
from ai.flippers import finish_turn
from ai.flippers_outlook import outlook
from ai.halving import playout
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


def turn_start(players: int) -> tuple[Any, int]:
    """Return a seeded position where `seat` is about to play a card, with many plays to choose from."""
    for state, seat in positions("flippers", players, {}, 4, every=1):
        if state.phase == PLAY and state.played is None and len(GAME.legal_actions(state, seat)) > 20:
            return state, seat
    raise AssertionError("no turn start found")


def test_a_two_player_playout_plays_the_best_of_three_random_plays_by_their_outlook() -> None:
    # Before: every playout move was uniformly random, the first draw.
    ai = bots()["flippers"]
    state, seat = turn_start(2)
    legal = GAME.legal_actions(state, seat)

    def points(action: dict[str, Any]) -> float:
        after = ai.clone(state)
        GAME.apply(after, seat, action)
        return ai.margin(outlook(after, ai.outlook_weights), after, seat)

    telling = 0
    for seed in range(30):
        rng = random.Random(seed)
        draws = [rng.choice(legal) for _ in range(3)]
        best = max(draws, key=points)  # the first of the best, as the playout keeps it
        assert ai.playout_action(ai.clone(state), seat, legal, random.Random(seed)) == best
        telling += points(best) > points(draws[0])
    assert telling >= 3  # positions where the best of three is not the first draw


def test_a_six_player_playout_still_plays_uniformly_at_random() -> None:
    ai = bots()["flippers"]
    state, seat = turn_start(6)
    legal = GAME.legal_actions(state, seat)
    for seed in range(10):
        assert ai.playout_action(state, seat, legal, random.Random(seed)) == random.Random(seed).choice(legal)
    assert ai.playout_work(state, legal) == 0


def test_the_plays_a_playout_tries_are_charged_to_the_virtual_clock() -> None:
    # Before: a playout cost only the actions it applied, so the tried plays were free think time.
    ai = bots()["flippers"]
    state, seat = turn_start(2)
    applied = choices = 0
    copy = ai.clone(state)
    rng = random.Random(3)
    while not GAME.is_over(copy) and applied < (ai.playout_limit(copy) or 10**9):
        mover = actor(GAME.to_act(copy), seat)
        legal = GAME.legal_actions(copy, mover)
        choices += len(legal) > 1 and legal[0]["type"] == "play"
        GAME.apply(copy, mover, ai.playout_action(copy, mover, legal, rng))
        applied += 1
    reward, cost = playout(ai, ai.clone(state), seat, random.Random(3))
    assert choices > 0
    assert cost == applied + 3 * choices
    assert reward == ai.rewards(copy)[seat]
