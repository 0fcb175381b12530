"""Check the hint worker: it thinks as the hard computer player in the seat does, on the same clock."""

from __future__ import annotations

import random

import pytest

from engine.registry import get
from ui.hints import think
from ui.thinkers import choose


@pytest.mark.parametrize("kind", ["fish", "tank", "flippers"])
def test_the_hint_worker_suggests_the_move_the_hard_player_makes_with_the_same_seed_and_budget(kind: str) -> None:
    game, rng = get(kind), random.Random(4)
    state = game.new_game(2, {}, 4)
    for _ in range(9):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    given = think(kind, view, seat, ["Ana", "Bo"], 21, 0.05, "en")
    # Before: the hint thought on the wall clock (in a worker at a lower priority), the computer on a virtual one,
    # so on a busy machine a hint searched less than the hard player it stands for.
    assert given["action"] == choose(kind, view, seat, "hard", 21, 0.05, None)
    assert think(kind, view, seat, ["Ana", "Bo"], 21, 0.05, "en") == given
