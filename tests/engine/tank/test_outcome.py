"""Final standings: per-type breakdown, ranks, and shared victories on ties."""

from __future__ import annotations

import random

from engine.tank import GAME
from engine.tank.state import TankState
from tests.engine.tank.helpers import cards_of, play


def _finished(players: int, hands: list[list[str]], goal: str = "big_school") -> TankState:
    """Play a random game to the end, then give the seats these aquariums (old ones go to the discards)."""
    state = GAME.new_game(players, {}, 1)
    play(state, random.Random(1))
    state.goal = goal
    for seat in range(players):
        state.discards += state.hands[seat]
        state.hands[seat] = []
    for seat, hand in enumerate(hands):
        for card in hand:
            (state.discards if card in state.discards else state.deck).remove(card)
        state.hands[seat] = list(hand)
    return state


def test_detail_has_every_fish_type_goal_chest_and_total() -> None:
    state = _finished(3, [["molly-7", "chest"], cards_of("guppy")[:2], []])
    top = GAME.outcome(state).standings[0]
    assert top.seat == 0
    assert {k: top.detail[k] for k in ("molly", "chest", "guppy", "goal", "total")} == {
        "molly": 5,
        "chest": 7,
        "guppy": 0,
        "goal": 0,
        "total": 12,
    }
    assert {"discus", "neon", "angelfish", "gourami"} <= set(top.detail)


def test_tied_leaders_share_rank_and_victory() -> None:
    state = _finished(4, [["molly-7"], cards_of("gourami")[:1], ["molly-1"], ["molly-2"]])
    result = GAME.outcome(state)
    assert sorted(result.winners) == [0, 1]
    ranks = {s.seat: s.rank for s in result.standings}
    assert ranks == {0: 1, 1: 1, 2: 4, 3: 3}
    assert "share" in result.tiebreak


def test_single_winner_has_no_tiebreak_line() -> None:
    state = _finished(2, [["molly-7"], ["molly-1"]])
    result = GAME.outcome(state)
    assert result.winners == [0] and result.tiebreak == ""
    assert [s.seat for s in result.standings] == [0, 1]
