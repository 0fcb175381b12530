"""Check the Hey, That's My Fish! judge: floes held by one seat count whole, shared floes are split."""

from __future__ import annotations

from typing import Any

import pytest

from ai import choose_action
from ai.base import action_key
from ai.easy import score_actions
from ai.fish import FishAI, estimate, floes
from engine.fish.board import layout
from engine.fish.game import PLAY, FishState
from tests.ai.helpers import positions

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


def test_easy_prefers_the_move_that_wins_ice_to_the_one_that_grabs_fish() -> None:
    # Before: easy drew its move by the fish it grabbed and the tiles beside its penguins, as one-move greedy does.
    ai = FishAI()
    game = ai.game
    for seed in range(30):
        for state, seat in positions("fish", 2, {}, seed, every=1):
            if state.phase != PLAY:
                continue
            actions = game.legal_actions(state, seat)
            grab = score_actions(ai, state, seat, actions)
            lead = [ai.margin(ai.estimate(after), after, seat) for after in afters(ai, state, seat, actions)]
            greedy = {action_key(a) for a, g in zip(actions, grab, strict=True) if g == max(grab)}
            wise = {action_key(a) for a, v in zip(actions, lead, strict=True) if v == max(lead)}
            greedy_lead = max(v for a, v in zip(actions, lead, strict=True) if action_key(a) in greedy)
            if max(lead) >= greedy_lead + 4 and not greedy & wise:
                view = game.view(state, seat)
                picks = [action_key(choose_action("fish", view, seat, "easy", n)) for n in range(40)]
                assert sum(p in wise for p in picks) > 2 * sum(p in greedy for p in picks)
                return
    raise AssertionError("no position where grabbing fish loses ice")


def afters(ai: FishAI, state: FishState, seat: int, actions: list[dict[str, Any]]) -> list[FishState]:
    """Return the position each action leads to."""
    out = []
    for action in actions:
        after = ai.clone(state)
        ai.game.apply(after, seat, action)
        out.append(after)
    return out
