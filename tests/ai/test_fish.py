"""Check the Hey, That's My Fish! judge: floes held by one seat count whole, shared floes are split."""

from __future__ import annotations

import pytest

from ai.fish import FishAI, estimate, floes
from engine.fish.board import layout
from engine.fish.game import PLAY, FishState

BOARD = layout()


def board(fish: dict[str, int], penguins: list[list[str]]) -> FishState:
    """Return a play-phase state with only the given tiles on the board."""
    tiles = [0] * BOARD.size
    for label, value in fish.items():
        tiles[BOARD.index_of[label]] = value
    players = len(penguins)
    return FishState(
        players=players,
        seed=0,
        balanced=False,
        tiles=tiles,
        penguins=[[BOARD.index_of[label] for label in seat] for seat in penguins],
        to_place=[0] * players,
        collected=[[2], []],
        resigned=[False] * players,
        phase=PLAY,
    )


def test_a_floe_held_by_one_seat_counts_whole_for_it() -> None:
    state = board({"A1": 1, "A2": 3, "A3": 2, "H1": 1, "H2": 1}, [["A1"], ["H1"]])
    assert len(floes(state.tiles)) == 2
    assert estimate(state) == [2 + 6, 2]
    assert FishAI().decided(state)


def test_a_shared_floe_goes_to_the_nearer_penguins() -> None:
    state = board({"A1": 1, "A2": 3, "A3": 2, "A4": 1, "A5": 3}, [["A1"], ["A5"]])
    near, tied = 0.85, 0.85**2 / 2
    assert estimate(state) == pytest.approx([2 + 1 + 3 * near + 2 * tied, 3 + 1 * near + 2 * tied])
    assert not FishAI().decided(state)


def test_an_empty_floe_counts_for_nobody() -> None:
    state = board({"A1": 1, "C1": 3, "C2": 3}, [["A1"], []])
    assert estimate(state) == [3, 0]
