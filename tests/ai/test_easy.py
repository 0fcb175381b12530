"""Check the easy player averages its scores over as many sampled deals as its game asks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai import bots
from ai.easy import choose_easy
from engine.registry import get
from tests.ai.helpers import positions


@pytest.mark.parametrize(("key", "worlds"), [("tank", 4), ("fish", 1), ("flippers", 1)])
def test_easy_deals_the_hidden_cards_as_often_as_its_game_asks(
    key: str, worlds: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: easy judged every Tank move in one sampled deal, so one deal's luck swayed it as much as greedy's.
    ai = bots()[key]
    game = get(key)
    state, seat = next(
        (s, seat) for s, seat in positions(key, 3, {}, 1, every=1) if len(game.legal_actions(s, seat)) > 1
    )
    view = game.view(state, seat)
    dealt: list[Any] = []
    real = type(ai).determinize

    def counting(self: Any, view: Any, seat: int, rng: random.Random) -> Any:
        dealt.append(seat)
        return real(self, view, seat, rng)

    monkeypatch.setattr(type(ai), "determinize", counting)
    action = choose_easy(ai, view, seat, game.legal_actions(state, seat), random.Random(2))
    assert action in game.legal_actions(state, seat)
    assert dealt == [seat] * worlds
