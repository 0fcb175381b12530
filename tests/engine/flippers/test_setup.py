"""Check the setup: Food and Leaders on the table, private simultaneous discards, hands of two."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.cards import CARDS, FOOD
from engine.flippers.state import PLAY, SETUP
from tests.engine.flippers.helpers import cell_of, new_started

# players: (discard, Food cards, cards each player plays)
REFERENCE = {2: (1, 1, 7), 3: (1, 2, 7), 4: (2, 2, 6), 5: (3, 3, 5), 6: (3, 3, 5)}


@pytest.mark.parametrize("players", sorted(REFERENCE))
def test_setup_follows_the_reference_table(players: int) -> None:
    discard, food, plays = REFERENCE[players]
    state = GAME.new_game(players, {}, seed=11)
    assert state.phase == SETUP
    assert GAME.to_act(state) == list(range(players))
    assert sum(CARDS[c].kind == FOOD for c in state.where) == food
    assert state.stash == [6] * players and state.supply == 82 - 6 * players
    assert all(len(h) == 3 and len(d) == 5 for h, d in zip(state.hands, state.decks, strict=True))
    for seat in range(players):
        assert GAME.legal_actions(state, seat)[0]["type"] == "discard"
        assert all(len(a["cards"]) == discard for a in GAME.legal_actions(state, seat))
    started = new_started(players, seed=11)
    assert started.phase == PLAY and started.current == 0
    assert all(len(h) == 2 for h in started.hands)
    assert all(len(d) == discard for d in started.discards)
    assert all(len(h) + len(d) == plays for h, d in zip(started.hands, started.decks, strict=True))


@pytest.mark.parametrize("players", sorted(REFERENCE))
def test_food_in_a_row_and_leaders_centred_below_facing_north(players: int) -> None:
    state = GAME.new_game(players, {}, seed=3)
    foods = sorted((state.where[c], c) for c in state.where if CARDS[c].kind == FOOD)
    leaders = [state.where[f"{t}-leader"] for t in "cmewls"[:players]]
    assert len({row for (_, row), _ in foods}) == 1
    food_row = foods[0][0][1]
    assert [cell[1] for cell in leaders] == [food_row + 1] * players
    assert [cell[0] for cell in leaders] == list(range(leaders[0][0], leaders[0][0] + players))
    food_cols = [cell[0] for cell, _ in foods]
    assert food_cols == list(range(food_cols[0], food_cols[0] + len(foods)))
    assert abs((food_cols[0] + food_cols[-1]) - (leaders[0][0] + leaders[-1][0])) <= 1
    assert all(state.facing[f"{t}-leader"] == "N" for t in "cmewls"[:players])
    assert all(state.face[f"{t}-leader"] == "up" for t in "cmewls"[:players])


def test_six_players_start_inside_a_to_z_and_one_to_thirty() -> None:
    state = GAME.new_game(6, {}, seed=1)
    labels = [cell_of(state, c) for c in state.where]
    assert sorted(labels) == sorted(["L16", "M16", "N16", "O16", "P16", "Q16", "M15", "N15", "O15"])


def test_the_seed_decides_decks_food_and_sides() -> None:
    first, again = GAME.new_game(4, {}, seed=5), GAME.new_game(4, {}, seed=5)
    assert GAME.dump(first) == GAME.dump(again)
    dumps = {str(GAME.dump(GAME.new_game(4, {}, seed=s))) for s in range(20)}
    assert len(dumps) == 20


def test_discards_are_simultaneous_and_play_waits_for_everyone() -> None:
    state = GAME.new_game(3, {}, seed=2)
    GAME.apply(state, 1, {"type": "discard", "cards": [state.hands[1][0]]})
    assert GAME.to_act(state) == [0, 2]
    assert len(state.hands[1]) == 2
    with pytest.raises(IllegalAction, match="already chosen"):
        GAME.apply(state, 1, {"type": "discard", "cards": [state.hands[1][0]]})
    GAME.apply(state, 2, {"type": "discard", "cards": [state.hands[2][2]]})
    events = GAME.apply(state, 0, {"type": "discard", "cards": [state.hands[0][1]]})
    assert state.phase == PLAY and GAME.to_act(state) == [0]
    assert [e.kind for e in events if e.private_to is None][-2:] == ["setup_done", "turn_start"]


def test_four_players_discard_two_then_draw_back_to_two() -> None:
    state = GAME.new_game(4, {}, seed=9)
    kept = {}
    for seat in range(4):
        kept[seat] = state.hands[seat][2]
        top = state.decks[seat][0]
        GAME.apply(state, seat, {"type": "discard", "cards": state.hands[seat][:2]})
        kept[seat] = (kept[seat], top)
    assert [tuple(h) for h in state.hands] == [kept[s] for s in range(4)]


def test_five_players_discard_all_three_and_draw_two() -> None:
    state = GAME.new_game(5, {}, seed=9)
    tops = [d[:2] for d in state.decks]
    for seat in range(5):
        GAME.apply(state, seat, {"type": "discard", "cards": list(state.hands[seat])})
    assert state.hands == tops
    assert all(len(d) == 3 for d in state.decks)


def test_the_discard_is_private() -> None:
    state = GAME.new_game(2, {}, seed=4)
    gone = state.hands[0][0]
    events = GAME.apply(state, 0, {"type": "discard", "cards": [gone]})
    assert all(gone not in str(e.data) for e in events if e.private_to is None)
    assert gone not in str(GAME.view(state, None)) and gone not in str(GAME.view(state, 1))
    assert gone in str(GAME.view(state, 0)["discarded_cards"])


@pytest.mark.parametrize("players", [2, 3, 5])
def test_team_up_needs_four_or_six_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="Team Up"):
        GAME.new_game(players, {"teams": True}, seed=1)


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_is_two_to_six(players: int) -> None:
    with pytest.raises(IllegalAction):
        GAME.new_game(players, {}, seed=1)


def test_registry_finds_flippers() -> None:
    from engine.registry import get

    game = get("flippers")
    assert game.title == "Flippers" and game.hidden_information
    assert [o.name for o in game.options] == ["teams"]
