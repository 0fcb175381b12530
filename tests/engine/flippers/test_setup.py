"""Check the setup: Food and Leaders on the table, private simultaneous discards, hands of two."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.cards import CARDS, FOOD
from engine.flippers.state import LEADERS, PLAY, SETUP
from engine.flippers.table import step
from tests.engine.flippers.helpers import NAMES, new_setup, new_started, place_leaders

# players: (discard, Food cards, cards each player plays)
REFERENCE = {2: (1, 1, 7), 3: (1, 2, 7), 4: (2, 2, 6), 5: (3, 3, 5), 6: (3, 3, 5)}


@pytest.mark.parametrize("players", sorted(REFERENCE))
def test_setup_follows_the_reference_table(players: int) -> None:
    discard, food, plays = REFERENCE[players]
    state = GAME.new_game(players, {}, seed=11)
    assert state.phase == LEADERS and GAME.to_act(state) == [state.first]
    assert sum(CARDS[c].kind == FOOD for c in state.where) == food
    assert state.stash == [6] * players and state.supply == 82 - 6 * players
    # Set-up step 6 follows step 5: nobody holds a card while the Leaders are placed.
    assert all(len(h) == 0 and len(d) == 8 for h, d in zip(state.hands, state.decks, strict=True))
    place_leaders(state)
    if discard < 3:
        assert all(len(h) == 3 and len(d) == 5 for h, d in zip(state.hands, state.decks, strict=True))
        assert state.phase == SETUP and GAME.to_act(state) == list(range(players))
        for seat in range(players):
            assert all(len(a["cards"]) == discard for a in GAME.legal_actions(state, seat))
    started = new_started(players, seed=11)
    assert started.phase == PLAY and started.current == started.first
    assert all(len(h) == 2 for h in started.hands)
    assert all(len(d) == discard for d in started.discards)
    assert all(len(h) + len(d) == plays for h, d in zip(started.hands, started.decks, strict=True))


@pytest.mark.parametrize("players", sorted(REFERENCE))
def test_food_in_a_row_facing_north_and_no_leader_on_the_table_yet(players: int) -> None:
    state = GAME.new_game(players, {}, seed=3)
    foods = sorted(state.where[c] for c in state.where if CARDS[c].kind == FOOD)
    assert len(foods) == len(state.where) and len({row for _, row in foods}) == 1
    assert [col for col, _ in foods] == list(range(foods[0][0], foods[0][0] + len(foods)))
    assert all(state.facing[c] == "N" for c in state.where)


def test_the_first_player_is_drawn_at_random_from_the_seed_and_announced() -> None:
    firsts = {GAME.new_game(4, {}, seed=s).first for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = GAME.new_game(4, {}, seed=7)
    assert GAME.new_game(4, {}, seed=7).first == state.first
    assert f"({NAMES[state.first]} plays first, drawn at random)" in GAME.status(state, NAMES)


@pytest.mark.parametrize(("players", "cells"), [(2, 4), (3, 6), (5, 8)])
def test_each_player_in_turn_order_places_their_leader_beside_a_food_card_facing_it(players: int, cells: int) -> None:
    # Ruling: "in that order, each player places their Leader in an empty cell that shares an edge with a Food
    # card, facing that Food card (there are 4, 6 and 8 such cells for 1, 2 and 3 Food cards)".
    state = GAME.new_game(players, {}, seed=21)
    assert len(GAME.legal_actions(state, state.first)) == cells
    order = [(state.first + k) % players for k in range(players)]
    lines = []
    for k, seat in enumerate(order):
        assert GAME.to_act(state) == [seat]
        assert all(GAME.legal_actions(state, other) == [] for other in range(players) if other != seat)
        action = GAME.legal_actions(state, seat)[-1]
        lines += [GAME.describe(e, NAMES) for e in GAME.apply(state, seat, action)]
        leader = f"{'cmewls'[seat]}-leader"
        cell, facing = state.where[leader], state.facing[leader]
        assert CARDS[state.cells[step(cell, facing)]].kind == FOOD and state.face[leader] == "up"
        if state.phase == LEADERS:
            assert len(GAME.legal_actions(state, GAME.to_act(state)[0])) == cells - k - 1
    assert f"{NAMES[order[0]]} placed their Leader at " in lines[0]
    assert state.phase in (SETUP, PLAY)


def test_a_leader_must_go_beside_a_food_card_and_face_it() -> None:
    state = GAME.new_game(2, {}, seed=4)
    seat, other = state.first, 1 - state.first
    before = GAME.dump(state)
    for action, message in [
        ({"type": "leader", "cell": "N13"}, "not an empty cell beside a Food card"),
        ({"type": "leader", "cell": "N15"}, "not an empty cell beside a Food card"),
        ({"type": "leader", "cell": "N14", "facing": "N"}, "must face its Food card"),
        ({"type": "leader", "cell": "Z"}, "is not a cell"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            GAME.apply(state, seat, action)
    with pytest.raises(IllegalAction, match="not your turn to place your Leader"):
        GAME.apply(state, other, {"type": "leader", "cell": "N14"})
    with pytest.raises(IllegalAction, match="Leaders are being placed"):
        GAME.apply(state, seat, {"type": "play", "card": state.decks[seat][0], "cell": "N14", "facing": "N"})
    with pytest.raises(IllegalAction, match="only chosen during setup"):
        GAME.apply(state, seat, {"type": "discard", "cards": [state.decks[seat][0]]})
    assert GAME.dump(state) == before
    GAME.apply(state, seat, {"type": "leader", "cell": "n14"})
    assert state.facing[f"{'cm'[seat]}-leader"] == "S"
    with pytest.raises(IllegalAction, match="not an empty cell"):
        GAME.apply(state, other, {"type": "leader", "cell": "N14"})


def test_play_starts_with_the_first_player() -> None:
    for seed in range(8):
        state = new_started(3, seed=seed)
        assert state.current == state.first and state.turn == 1


def test_the_seed_decides_decks_food_and_sides() -> None:
    first, again = GAME.new_game(4, {}, seed=5), GAME.new_game(4, {}, seed=5)
    assert GAME.dump(first) == GAME.dump(again)
    dumps = {str(GAME.dump(GAME.new_game(4, {}, seed=s))) for s in range(20)}
    assert len(dumps) == 20


def test_discards_are_simultaneous_and_play_waits_for_everyone() -> None:
    state = new_setup(3, seed=2)
    GAME.apply(state, 1, {"type": "discard", "cards": [state.hands[1][0]]})
    assert GAME.to_act(state) == [0, 2]
    assert len(state.hands[1]) == 2
    with pytest.raises(IllegalAction, match="already chosen"):
        GAME.apply(state, 1, {"type": "discard", "cards": [state.hands[1][0]]})
    GAME.apply(state, 2, {"type": "discard", "cards": [state.hands[2][2]]})
    events = GAME.apply(state, 0, {"type": "discard", "cards": [state.hands[0][1]]})
    assert state.phase == PLAY and GAME.to_act(state) == [state.first]
    assert [e.kind for e in events if e.private_to is None][-2:] == ["setup_done", "turn_start"]


def test_four_players_discard_two_then_draw_back_to_two() -> None:
    state = new_setup(4, seed=9)
    kept = {}
    for seat in range(4):
        kept[seat] = state.hands[seat][2]
        top = state.decks[seat][0]
        GAME.apply(state, seat, {"type": "discard", "cards": state.hands[seat][:2]})
        kept[seat] = (kept[seat], top)
    assert [tuple(h) for h in state.hands] == [kept[s] for s in range(4)]


@pytest.mark.parametrize("players", [5, 6])
def test_five_and_six_players_discard_all_three_by_themselves_and_draw_two(players: int) -> None:
    state = GAME.new_game(players, {}, seed=9)
    drawn = [d[:3] for d in state.decks]
    tops = [d[3:5] for d in state.decks]
    events = []
    while state.phase == LEADERS:
        seat = GAME.to_act(state)[0]
        events += GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.phase == PLAY and state.hands == tops and state.discards == drawn
    assert all(len(d) == 3 for d in state.decks)
    public = [GAME.describe(e, NAMES) for e in events if e.private_to is None]
    assert (
        f"Leaders placed. With {players} players every seat discards all 3 cards it drew: done automatically."
        in public
    )
    assert all(cid not in " ".join(public) for hand in drawn for cid in hand)


def test_the_discard_is_private() -> None:
    state = new_setup(2, seed=4)
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
