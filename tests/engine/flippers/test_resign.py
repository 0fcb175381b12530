"""Check resigning: the seat's hand and deck go, its table cards stay, and the game goes on or ends."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.state import PLAY
from tests.engine.flippers.helpers import NAMES, new_setup, new_started, place_leaders, play, table


def test_resigning_mid_turn_passes_the_turn_and_keeps_table_cards() -> None:
    cards = [("food-1", "N15", "N", "A"), ("c-plus", "M15", "N", "up"), ("c-bump", "A1", "N", "up")]
    state = table(cards, {0: ["c-flip", "c-turn"], 1: ["m-flip"], 2: ["e-flip"]}, players=3)
    state.decks[0] = [state.discards[0].pop()]
    secret = ["c-turn", *state.decks[0]]
    play(state, "c-flip", "N14", "E")
    assert state.current == 0
    events = GAME.resign(state, 0)
    assert state.where.keys() >= {"c-flip", "c-plus"}
    assert state.hands[0] == [] and state.decks[0] == []
    assert set(secret) <= set(state.discards[0])
    assert state.current == 1 and state.played is None
    assert GAME.describe(events[0], NAMES) == (
        "Ana resigned: their hand and deck leave the game, their cards on the table stay."
    )
    assert all(card not in str(e.data) for e in events for card in secret)
    assert all(card not in str(GAME.view(state, seat)) for seat in (None, 1, 2) for card in secret)


def test_a_resigned_seat_is_skipped() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-flip"], 1: ["m-flip"], 2: ["e-flip"]}, players=3)
    GAME.resign(state, 1)
    play(state, "c-flip", "N14", "W")
    assert state.current == 2


def test_two_players_one_resigns_the_other_wins_even_behind() -> None:
    state = new_started(2, seed=2)
    state.stash, state.supply = [20, 0], state.supply - 8
    GAME.resign(state, 0)
    assert GAME.is_over(state)
    result = GAME.outcome(state)
    assert result.winners == [1]
    assert [s.seat for s in result.standings] == [1, 0]


def test_resigning_during_setup_starts_play_when_the_others_have_chosen() -> None:
    state = new_setup(3, seed=6)
    for seat in (0, 2):
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    GAME.resign(state, 1)
    assert state.first == 1 and state.phase == PLAY and state.current == 2  # the first player resigned
    assert state.hands[1] == [] and len(state.discards[1]) == 8
    assert GAME.to_act(state) == [2]


def test_resigning_while_placing_your_leader_passes_placement_to_the_next_seat() -> None:
    state = GAME.new_game(3, {}, seed=6)
    seat = state.first
    GAME.resign(state, seat)
    assert GAME.to_act(state) == [(seat + 1) % 3]
    place_leaders(state)
    assert f"{'cme'[seat]}-leader" not in state.where and state.phase == "setup"
    assert GAME.to_act(state) == [s for s in range(3) if s != seat]


def test_team_up_goes_on_until_a_whole_side_resigns() -> None:
    state = new_started(4, seed=3, teams=True)
    GAME.resign(state, 1)
    assert not GAME.is_over(state)
    GAME.resign(state, 3)
    assert GAME.is_over(state)
    assert GAME.outcome(state).winners == [0, 2]


def test_team_up_resigned_partner_is_not_a_winner() -> None:
    state = new_started(6, seed=3, teams=True)
    GAME.resign(state, 2)
    GAME.resign(state, 1)
    GAME.resign(state, 3)
    GAME.resign(state, 5)
    assert GAME.is_over(state) and GAME.outcome(state).winners == [0, 4]


def test_resigning_after_the_end_is_refused() -> None:
    state = new_started(2, seed=2)
    GAME.resign(state, 0)
    with pytest.raises(IllegalAction, match="over"):
        GAME.resign(state, 1)
