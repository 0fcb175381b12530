"""Check setup, grid size, split and draft orders, group letters and the round structure."""

from __future__ import annotations

import random

import pytest

from engine.registry import games
from engine.tank import GAME
from tests.engine.tank.helpers import finish_splits, play

ROUNDS = {2: 4, 3: 3, 4: 4, 5: 5}


def test_registry_finds_the_game() -> None:
    game = games()["tank"]
    assert game is GAME
    assert (game.title, game.hidden_information, game.min_players, game.max_players) == (
        "10 Gallon Tank",
        True,
        2,
        5,
    )


@pytest.mark.parametrize(("players", "side"), [(2, 3), (3, 4), (4, 4), (5, 4)])
def test_grid_size_per_player_count(players: int, side: int) -> None:
    state = GAME.new_game(players, {}, 7)
    view = GAME.view(state, None)
    assert view["grid_size"] == side
    assert sum(card is not None for row in view["grid"] for card in row) == side * side
    assert view["groups"] == [
        {"letter": "A", "label": "1", "rows": [0, side], "cols": [0, side], "size": side * side, "cuts": view["lines"]}
    ]


def test_same_seed_same_game_and_seeds_vary_deck_goal_and_start() -> None:
    assert GAME.dump(GAME.new_game(4, {}, 11)) == GAME.dump(GAME.new_game(4, {}, 11))
    states = [GAME.new_game(4, {}, seed) for seed in range(60)]
    assert {s.first_start for s in states} == {0, 1, 2, 3}
    assert {s.goal for s in states} == {"community", "big_school", "full_tank"}
    assert len({tuple(s.grid) for s in states}) == 60


def _orders(players: int, seed: int) -> tuple[int, list[int], list[int]]:
    """Return the first start seat and the seats that split and took in round 1."""
    state = GAME.new_game(players, {}, seed)
    split_seats: list[int] = []
    while state.phase == "split":
        seat = GAME.to_act(state)[0]
        split_seats.append(seat)
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    take_seats: list[int] = []
    while state.round == 1:
        seat = GAME.to_act(state)[0]
        if state.phase == "take":
            take_seats.append(seat)
        action = GAME.legal_actions(state, seat)[-1 if state.phase == "discard" else 0]
        GAME.apply(state, seat, action)
    return GAME.new_game(players, {}, seed).first_start, split_seats, take_seats


@pytest.mark.parametrize("players", [2, 3])
def test_two_and_three_players_split_and_draft_twice_snake(players: int) -> None:
    start, splits, takes = _orders(players, 5)
    order = [(start + i) % players for i in range(players)]
    assert splits == order + order[::-1]
    assert takes == order + order[::-1]


@pytest.mark.parametrize("players", [4, 5])
def test_four_and_five_players_split_and_draft_once_clockwise(players: int) -> None:
    start, splits, takes = _orders(players, 5)
    order = [(start + i) % players for i in range(players)]
    assert splits == order
    assert takes == order


@pytest.mark.parametrize(("players", "groups"), [(2, 5), (3, 7), (4, 5), (5, 6)])
def test_groups_per_round_and_one_left_over(players: int, groups: int) -> None:
    state = GAME.new_game(players, {}, 3)
    finish_splits(state)
    assert len(state.groups) == groups
    assert len(state.queue) == groups - 1
    pile = len(state.discards)
    events = []
    while state.round == 1:
        seat = GAME.to_act(state)[0]
        kind = state.phase
        events += GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1 if kind == "discard" else 0])
    leftovers = [e for e in events if e.kind == "leftover"]
    assert len(leftovers) == 1
    gourami_discards = sum(e.data["count"] for e in events if e.kind == "discard")
    assert len(state.discards) == pile + leftovers[0].data["count"] + gourami_discards


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_start_player_rotates_clockwise_each_round(players: int) -> None:
    state = GAME.new_game(players, {}, 21)
    first = state.first_start
    assert GAME.to_act(state) == [first]
    log = play(state, random.Random(1))
    starts = [e.data["start"] for e in log if e.kind == "round_start"]
    assert starts == [(first + r) % players for r in range(1, ROUNDS[players])]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_game_lasts_the_right_number_of_rounds_and_deals_whole_grids(players: int) -> None:
    state = GAME.new_game(players, {}, 4)
    total = len(state.deck) + len([c for c in state.grid if c])
    log = play(state, random.Random(2))
    side = 3 if players == 2 else 4
    assert state.round == ROUNDS[players]
    assert sum(e.kind == "round_start" for e in log) == ROUNDS[players] - 1
    assert len(state.deck) == total - ROUNDS[players] * side * side
    assert log[-1].kind == "game_over"


def test_split_group_keeps_its_letter_for_the_top_part_and_new_part_gets_next_letter() -> None:
    state = GAME.new_game(4, {}, 1)
    seat = GAME.to_act(state)[0]
    events = GAME.apply(state, seat, {"type": "split", "group": "A", "line": "h1"})
    assert events[0].data == {"group": "A", "line": "h1", "new": "B"}
    assert state.groups == {"A": (0, 0, 1, 4), "B": (1, 0, 4, 4)}
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, {"type": "split", "group": "b", "line": "V2"})
    assert state.groups == {"A": (0, 0, 1, 4), "B": (1, 0, 4, 2), "C": (1, 2, 4, 4)}


def test_legal_splits_list_every_full_line_of_every_splittable_group_only() -> None:
    state = GAME.new_game(2, {}, 1)
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, {"type": "split", "group": "A", "line": "v2"})
    seat = GAME.to_act(state)[0]
    actions = GAME.legal_actions(state, seat)
    assert actions == [
        {"type": "split", "group": "A", "line": "h1"},
        {"type": "split", "group": "A", "line": "h2"},
        {"type": "split", "group": "A", "line": "v1"},
        {"type": "split", "group": "B", "line": "h1"},
        {"type": "split", "group": "B", "line": "h2"},
    ]
    other = 1 - seat
    assert GAME.legal_actions(state, other) == []


def test_take_phase_offers_every_remaining_group() -> None:
    state = GAME.new_game(4, {}, 2)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    assert GAME.legal_actions(state, seat) == [{"type": "take", "group": g} for g in sorted(state.groups)]
    GAME.apply(state, seat, {"type": "take", "group": "C"})
    if state.phase == "discard":
        GAME.apply(state, seat, {"type": "keep"})
    nxt = GAME.to_act(state)[0]
    assert {"type": "take", "group": "C"} not in GAME.legal_actions(state, nxt)


def test_taken_cards_leave_the_grid_and_join_the_aquarium() -> None:
    state = GAME.new_game(3, {}, 8)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    group = sorted(state.groups)[0]
    r0, c0, r1, c1 = state.groups[group]
    cards = [state.grid[r * 4 + c] for r in range(r0, r1) for c in range(c0, c1)]
    GAME.apply(state, seat, {"type": "take", "group": group})
    assert state.hands[seat] == cards
    assert all(state.grid[r * 4 + c] is None for r in range(r0, r1) for c in range(c0, c1))
