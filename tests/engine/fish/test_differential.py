"""Check the bitmask engine against the reference engine on thousands of seeded random games."""

from __future__ import annotations

import pytest

from tests.engine.fish.differential import play_both

GAMES = 2000


@pytest.mark.parametrize("block", range(4))
def test_bitmask_engine_matches_the_reference_move_by_move(block: int) -> None:
    per_block = GAMES // 4
    steps = sum(play_both(seed) for seed in range(block * per_block, (block + 1) * per_block))
    assert steps > per_block * 40
