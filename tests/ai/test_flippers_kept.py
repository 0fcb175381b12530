"""Check that the Flippers player judges what an opponent kept back from the card it chose to play, and only that."""

from __future__ import annotations

import random
from collections import Counter

from ai.flippers import FlippersAI
from ai.flippers_kept import SLIP, best_plays, kept_weights
from engine.flippers import GAME
from engine.flippers.cards import team_cards
from engine.flippers.state import FlippersState
from tests.engine.flippers.helpers import play, table


def turned_food() -> FlippersState:
    """Return a game after Macaroni played Turn holding Flip, when Replace would have scored more than either.

    Icefish (side A) pays 4 north, to Chinstrap's Leader; Macaroni's Leader faces it from the east.
    """
    state = table(
        [("food-3", "N15", "N", "A"), ("c-leader", "N14", "S", "up"), ("m-leader", "O15", "W", "up")],
        hands={0: ["c-bump", "c-turn"], 1: ["m-turn", "m-flip"]},
        current=1,
    )
    for seat in (0, 1):
        state.decks[seat], state.discards[seat] = state.discards[seat][:4], state.discards[seat][4:]
    play(state, "m-turn", "N13", "N", seat=1)
    while state.current == 1 and state.played is not None:
        GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    return state


def test_a_card_that_would_have_scored_more_than_the_one_played_is_seldom_taken_for_kept() -> None:
    state = turned_food()
    view = GAME.view(state, 0)
    ai = FlippersAI()
    ai.infer = True
    unseen = [c for c in team_cards(1)[1:] if c not in state.where]
    values = best_plays(ai, view, 1, view["last_plays"][1], unseen)
    weights = kept_weights(ai, view, 0)[1]
    assert set(weights) == set(unseen) and 0 not in kept_weights(ai, GAME.view(state, 1), 1)
    assert values["m-replace"] > values["m-turn"] > values["m-block"], "Replace would have beaten the Turn played"
    assert weights["m-replace"] < (1 + SLIP) / 2 < weights["m-block"]
    assert min(weights, key=weights.__getitem__) == max(unseen, key=values.__getitem__)
    held: Counter[str] = Counter()
    rng = random.Random(3)
    for _ in range(1000):
        world = ai.determinize(view, 0, rng)
        assert len(world.hands[1]) == 2 and len(world.decks[1]) == 3 and len(world.discards[1]) == 2
        held.update(world.hands[1])
    assert held["m-replace"] < 250 < held["m-block"], "uniform would hold each about 2 / 7 of the time (286)"
    ai.infer = False
    uniform = Counter(c for _ in range(1000) for c in ai.determinize(view, 0, rng).hands[1])
    assert abs(uniform["m-replace"] - uniform["m-block"]) < 80


def test_no_judgement_where_the_opponent_had_no_choice_or_holds_every_unseen_card() -> None:
    state = turned_food()
    state.last_plays[1] = {**state.last_plays[1], "held": 1}
    assert kept_weights(FlippersAI(), GAME.view(state, 0), 0) == {}
    state = turned_food()
    state.discards[1], state.decks[1] = [], []
    state.hands[1] = [c for c in team_cards(1)[1:] if c not in state.where][:2]
    for c in team_cards(1)[1:]:
        if c not in state.where and c not in state.hands[1]:
            state.place(c, (30 + len(state.cells), 30), "N", "down")
    assert kept_weights(FlippersAI(), GAME.view(state, 0), 0) == {}


def test_the_judgement_is_worked_out_once_per_decision() -> None:
    state = turned_food()
    view = GAME.view(state, 0)
    ai = FlippersAI()
    first = ai.kept(view, 0)
    assert ai.kept(view, 0) is first
    assert ai.kept(dict(view), 0) is not first, "another view is judged afresh"
