"""Check the Flippers fit records what a table shows at each turn and recovers the weights that made the points."""

from __future__ import annotations

import random

import pytest

from bench.flippers_fit import Game, Row, explained, fit, least_squares, record
from engine.flippers.cards import setup_rule


def test_least_squares_recovers_the_weights_of_exact_data() -> None:
    rng = random.Random(3)
    xs = [[rng.uniform(-5, 5), rng.uniform(-5, 5), 1.0] for _ in range(40)]
    ys = [2.0 * a - 0.5 * b + 3.0 for a, b, _ in xs]
    assert least_squares(xs, ys) == pytest.approx([2.0, -0.5, 3.0])


def test_least_squares_refuses_rows_that_cannot_tell_the_weights_apart() -> None:
    with pytest.raises(ValueError):
        least_squares([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], [1.0, 2.0, 3.0])


def test_least_squares_refuses_as_few_rows_as_weights_which_any_weights_would_fit_exactly() -> None:
    with pytest.raises(ValueError):
        least_squares([], [])
    with pytest.raises(ValueError):
        least_squares([[1.0, 0.0], [0.0, 1.0]], [3.0, 4.0])


def synthetic(seed: int, food: float, recurring: float) -> Game:
    """Return a made-up 2-player game of one row whose final points are its stash plus shares of Food and income."""
    rng = random.Random(seed)
    row = Row(
        0.5,
        [rng.randint(0, 12) for _ in range(2)],
        [rng.randint(0, 6) for _ in range(2)],
        [rng.randint(0, 1) for _ in range(2)],
        [float(rng.randint(-8, 8)) for _ in range(2)],
        {},
    )
    final = [round(row.stash[s] + food * row.food[s] + row.leader[s] + recurring * row.income[s]) for s in range(2)]
    return Game([row], final)


def test_the_fit_divides_each_weight_by_the_stash_weight_in_every_span_it_has_rows_for() -> None:
    games = [synthetic(seed, 0.5, 0.25) for seed in range(60)]
    (span,) = fit(games, 1)
    assert span.samples == 120
    assert span.food == pytest.approx(0.5, abs=0.05)
    assert span.income == pytest.approx(0.25, abs=0.05)
    assert span.leader == pytest.approx(1.0, abs=0.1)


def test_a_recorded_game_has_a_row_at_every_turn_and_the_final_points_of_every_seat() -> None:
    game = record(2, 7, 0.01)
    plays = 2 * (8 - setup_rule(2)[0])
    assert len(game.rows) == plays
    assert game.rows[0].progress == 0.0
    assert [row.progress for row in game.rows] == sorted(row.progress for row in game.rows)
    assert len(game.final) == 2
    assert 0.0 < explained([game], "old") <= 1.0

    assert game.rows[-1].progress == pytest.approx(1 - 1 / plays)  # the last play: one card left in one hand


def test_a_span_without_rows_to_tell_the_weights_apart_is_left_out() -> None:
    games = [synthetic(seed, 0.5, 0.25) for seed in range(60)]
    spans = fit(games, 2)  # every row is at progress 0.5: the first half has none
    assert [span.start for span in spans] == [0.5]
