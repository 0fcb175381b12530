"""Check the turn: play, the forced activations in the player's order, drawing, passing and the end."""

from __future__ import annotations

import random

import pytest

from engine.base import IllegalAction
from engine.flippers import GAME
from engine.flippers.game import open_cells
from engine.flippers.powers import available
from engine.flippers.table import label
from tests.engine.flippers.helpers import NAMES, activate, new_started, play, random_action, table


def test_after_playing_you_activate_your_other_face_up_cards_in_your_order() -> None:
    cards = [("c-plus", "N14", "N", "up"), ("c-turn", "O14", "S", "up"), ("c-minus", "P14", "N", "down")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "M14", "W")
    assert GAME.to_act(state) == [0]
    assert GAME.legal_actions(state, 0) == [
        {"type": "activate", "card": "c-turn"},
        {"type": "activate", "card": "c-plus"},
    ]
    events = activate(state, "N14")
    # The Turn is the only card left to activate: it acts by itself (to no effect: nothing told) and the turn ends.
    told = [GAME.describe(e, NAMES) for e in events]
    assert any(e.kind == "auto" for e in events) and not any("Ana's Turn" in line for line in told), told
    assert "Ana's Plus at N14 had nothing to target." in told  # chosen, so told
    assert [e.data["card"] for e in events if e.kind in ("plus", "turn", "fizzle")] == ["c-plus", "c-turn"]
    assert state.current == 1 and state.played is None


def test_a_card_that_already_acted_cannot_act_again() -> None:
    cards = [("c-plus", "N14", "N", "up"), ("c-turn", "O14", "S", "up"), ("c-bump", "A1", "N", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "M14", "W")
    activate(state, "N14")
    assert state.current == 0 and available(state, 0) == ["c-bump", "c-turn"]
    with pytest.raises(IllegalAction, match="already acted this turn"):
        activate(state, "c-plus")


def test_the_played_card_has_already_acted() -> None:
    cards = [("c-plus", "N14", "N", "up"), ("c-bump", "A1", "N", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "M14", "W")
    with pytest.raises(IllegalAction, match="already acted"):
        activate(state, "c-flip")


def test_a_card_flipped_face_up_during_the_turn_must_act_too() -> None:
    cards = [("c-plus", "N14", "N", "down"), ("c-turn", "O15", "N", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "N15", "N")
    assert state.face["c-plus"] == "up"
    assert available(state, 0) == ["c-turn", "c-plus"]


def test_a_card_flipped_face_down_during_the_turn_is_no_longer_due() -> None:
    cards = [
        ("c-plus", "N14", "N", "up"),
        ("c-turn", "O15", "N", "up"),
        ("m-leader", "O14", "N", "up"),
        ("c-bump", "A1", "N", "up"),
    ]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "N15", "N")
    assert available(state, 0) == ["c-bump", "c-turn"]
    with pytest.raises(IllegalAction, match="face down"):
        activate(state, "N14")


def test_the_turn_ends_by_itself_and_the_hand_is_drawn_back_to_two() -> None:
    state = new_started(2, seed=8)
    me = state.current
    deck_top = state.decks[me][0]
    kept = state.hands[me][1]
    play(state, state.hands[me][0], label(open_cells(state)[0]), "N")
    while state.current == me:
        activate(state, GAME.legal_actions(state, me)[0]["card"])
    assert state.hands[me] == [kept, deck_top]
    assert GAME.to_act(state) == [1 - me]


def test_leaders_and_food_cards_cannot_be_activated() -> None:
    cards = [
        ("c-plus", "N14", "N", "up"),
        ("c-leader", "N16", "N", "up"),
        ("food-1", "N15", "N", "A"),
        ("c-bump", "A1", "N", "up"),
    ]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "M14", "W")
    with pytest.raises(IllegalAction, match="Leader has no power"):
        activate(state, "N16")
    with pytest.raises(IllegalAction, match="Food cards have no power"):
        activate(state, "food-1")


def test_you_cannot_activate_an_opponents_card_or_act_out_of_turn() -> None:
    cards = [("c-plus", "N14", "N", "up"), ("m-turn", "O14", "N", "up"), ("c-bump", "A1", "N", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    with pytest.raises(IllegalAction, match="Play a card from your hand first"):
        activate(state, "N14")
    play(state, "c-flip", "M14", "W")
    with pytest.raises(IllegalAction, match="not your card"):
        activate(state, "O14")
    with pytest.raises(IllegalAction, match="It is not your turn"):
        activate(state, "O14", seat=1)


def test_players_without_cards_are_skipped() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-flip"], 1: [], 2: ["e-flip"]}, players=3)
    play(state, "c-flip", "N14", "W")
    assert state.current == 2


def test_a_player_plays_on_alone_when_the_others_are_out_of_cards() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-flip", "c-turn"]})
    play(state, "c-flip", "N14", "W")
    assert state.current == 0 and state.phase == "play"
    events = play(state, "c-turn", "N13", "W")  # the Flip, the only card left, acts by itself
    assert [e.kind for e in events][:3] == ["played", "fizzle", "auto"]
    assert GAME.is_over(state)


def test_the_game_ends_when_every_card_is_played_and_scores_food_and_leaders() -> None:
    cards = [
        ("food-1", "N15", "N", "A"),  # Krill A: N3 S1
        ("c-leader", "N16", "N", "up"),  # pointed at by the S1 arrow, and aims at Krill: +1
        ("m-leader", "O16", "N", "up"),  # aims at O15 (empty): no bonus
    ]
    state = table(cards, {0: ["c-turn"], 1: ["m-plus"]})
    play(state, "c-turn", "M16", "W")
    events = play(state, "m-plus", "N14", "E")
    assert GAME.is_over(state) and GAME.to_act(state) == []
    text = [GAME.describe(e, NAMES) for e in events]
    assert "Krill gives Bob 3 points (north arrow onto Bob's Plus at N14)." in text
    assert "Krill gives Ana 1 point (south arrow onto Ana's Leader at N16)." in text
    assert "Ana's Leader at N16 faces Krill: +1 point." in text
    result = GAME.outcome(state)
    ranked = [(s.seat, s.score, s.rank, s.winner) for s in result.standings]
    assert ranked == [(1, 9, 1, True), (0, 8, 2, False)]
    assert result.standings[1].detail == {
        "stash": 6,
        "food": 1,
        "leader": 1,
        "total": 8,
        "side": 0,
        "resigned": False,
    }
    assert text[-1] == "Game over: Bob (9) wins."


def test_the_leader_bonus_needs_a_face_up_leader_aiming_at_food() -> None:
    cards = [
        ("food-3", "N15", "N", "A"),
        ("c-leader", "N16", "N", "down"),
        ("m-leader", "O16", "W", "up"),
        ("e-leader", "M16", "N", "up"),
    ]
    state = table(cards, {}, players=3)
    details = [s.detail["leader"] for s in sorted(GAME.outcome(state).standings, key=lambda s: s.seat)]
    assert details == [0, 0, 0]  # face down; aims at a Leader; aims at an empty cell
    state.face["c-leader"] = "up"
    details = [s.detail["leader"] for s in sorted(GAME.outcome(state).standings, key=lambda s: s.seat)]
    assert details == [1, 0, 0]


def test_face_down_cards_receive_no_food() -> None:
    state = table([("food-3", "N15", "N", "A"), ("c-plus", "N14", "N", "down")], {})
    assert GAME.outcome(state).standings[0].detail["food"] == 0
    state.face["c-plus"] = "up"
    assert sorted(GAME.outcome(state).standings, key=lambda s: s.seat)[0].detail["food"] == 4


def test_ties_share_the_victory() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-turn"]})
    play(state, "c-turn", "M15", "W")
    result = GAME.outcome(state)
    assert result.winners == [0, 1] and result.tiebreak
    assert GAME.status(state, NAMES) == "Game over: Ana (6) and Bob (6) win. Tied: the victory is shared."


def test_team_up_adds_partners_points() -> None:
    state = table([("food-6", "N15", "N", "B"), ("c-plus", "N14", "N", "up")], {}, players=4, teams=True)
    state.stash = [1, 9, 2, 5]
    result = GAME.outcome(state)
    # Seats 0 and 2 (partners): 1 + 5 food + 2 = 8; seats 1 and 3: 9 + 5 = 14.
    assert result.winners == [1, 3]
    assert {s.seat: s.score for s in result.standings} == {0: 8, 1: 14, 2: 8, 3: 14}
    assert {s.seat: s.rank for s in result.standings} == {0: 2, 1: 1, 2: 2, 3: 1}  # one rank per team
    assert result.tiebreak == ""


def test_team_up_game_over_line_names_the_winning_team_and_its_combined_points() -> None:
    cards = [("food-6", "N15", "N", "B"), ("c-plus", "N14", "N", "up")]  # Cod B: 5 north, onto Ana's Plus
    state = table(cards, {1: ["m-turn"]}, players=4, teams=True, current=1)
    state.stash = [1, 9, 2, 5]
    events = play(state, "m-turn", "O15", "N")
    line = GAME.describe(events[-1], NAMES)
    # Ana & Cy: 1 + 5 + 2 = 8; Bob & Di: 9 + 5 = 14.
    assert line == "Game over: Team Macaroni & Weddell (14 points together) wins."
    assert GAME.status(state, NAMES) == line


def test_team_up_tie_names_both_teams() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-turn"]}, players=4, teams=True)
    events = play(state, "c-turn", "M15", "W")
    assert GAME.describe(events[-1], NAMES) == (
        "Game over: Team Chinstrap & Emperor (12 points together) and Team Macaroni & Weddell (12 points together)"
        " share the win."
        " Tied: the victory is shared."
    )


def test_team_up_tie_shares_the_victory_between_sides() -> None:
    state = table([], {}, players=6, teams=True)
    result = GAME.outcome(state)
    assert result.winners == list(range(6)) and result.tiebreak


def test_seeded_game_plays_to_the_end_with_every_card_on_the_table() -> None:
    state = new_started(6, seed=21)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    assert all(not h and not d for h, d in zip(state.hands, state.decks, strict=True))
    assert len(state.cells) == 3 + 6 + 6 * 5


def test_a_six_player_game_tells_what_changed_not_which_cards_acted_by_themselves_to_no_effect() -> None:
    for seed in range(3):
        state = new_started(6, seed)
        rng = random.Random(seed)
        told: list[str] = []
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            events = GAME.apply(state, seat, random_action(state, seat, rng))
            told += [GAME.describe(e, NAMES) for e in events if e.kind == "auto" or e.data.get("auto")]
        assert not [line for line in told if "by itself" in line or "had nothing to target" in line], seed
