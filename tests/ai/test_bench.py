"""Check the bot benchmark's arithmetic and that one short match plays through."""

from __future__ import annotations

import pytest

from bench.ai import play, wilson


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
