"""Check the fast 10 Gallon Tank scorer against the engine's, and the greedy draft estimate."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai import choose_action
from ai.tank import TankAI, estimate
from ai.tank_scoring import Scorer, tally
from engine.tank import GAME
from engine.tank.cards import deck_for
from engine.tank.data import RULES
from engine.tank.scoring import score_all
from engine.tank.state import TankState


def test_fast_totals_match_the_engine_on_random_aquariums() -> None:
    rng = random.Random(1)
    for _ in range(400):
        players = rng.randint(2, 5)
        deck = deck_for(players)
        rng.shuffle(deck)
        hands = []
        for _ in range(players):
            size = rng.randint(0, 20)
            hands.append(deck[:size])
            del deck[:size]
        competing = [rng.random() < 0.8 for _ in range(players)]
        goal = rng.choice(RULES.goals)
        expected = [row["total"] for row in score_all(hands, goal, competing)]
        assert Scorer(goal.key, players, competing).totals([tally(h) for h in hands]) == expected


def test_unfinished_sets_earn_part_credit_only_when_asked() -> None:
    angels = [c for c in deck_for(2) if c.startswith("angelfish")][:2]
    scorer = Scorer("full_tank", 2, [True, True])
    assert scorer.totals([tally(angels), tally([])]) == [0.0, 0.0]
    assert scorer.totals([tally(angels), tally([])], partial=True)[0] > 0


def test_estimate_of_a_finished_game_is_its_score() -> None:
    rng = random.Random(2)
    state = GAME.new_game(3, {}, 2)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    totals = {s.seat: s.score for s in GAME.outcome(state).standings}
    assert estimate(state) == [totals[s] for s in range(3)]


def test_playouts_stop_once_the_next_round_is_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    state = GAME.new_game(5, {}, 3)
    seat = GAME.to_act(state)[0]
    view = GAME.view(state, seat)
    rounds: list[int] = []
    playout = TankAI.playout_action

    def spy(self: TankAI, state: TankState, *args: Any) -> Any:
        rounds.append(state.round)
        return playout(self, state, *args)

    monkeypatch.setattr(TankAI, "playout_action", spy)
    choose_action("tank", view, seat, "hard", 1, iterations=20)
    assert rounds and set(rounds) == {1}
    rounds.clear()
    monkeypatch.setattr(TankAI, "round_horizon", False)
    choose_action("tank", view, seat, "hard", 1, iterations=20)
    assert max(rounds) == RULES.setup(5).rounds
