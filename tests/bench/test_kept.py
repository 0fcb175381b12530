"""Check the kept-card benchmark judges real plays with probabilities, from one short game."""

from __future__ import annotations

from bench.kept import cost, judge


def test_every_judgement_gives_the_true_kept_card_a_probability_and_the_uniform_one() -> None:
    pairs = judge(2, "easy", 0, 1)
    assert len(pairs) >= 5, "at 2 players each seat holds two cards at nearly every play"
    assert all(0 < inferred <= 1 and 0 < uniform <= 1 for inferred, uniform in pairs)
    assert all(uniform in {1 / n for n in range(2, 8)} for _, uniform in pairs)


def test_the_sampler_is_timed_inferring_and_uniform() -> None:
    line = cost(2, False, 1)
    assert line.startswith("flippers 2 players, ") and "uniform: first world" in line and "inferring: first" in line
