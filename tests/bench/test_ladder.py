"""Check the ladder reports each match's lead beside who won, and deals true hands only to a level told to."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai import bots
from bench.ladder import Budget, decide, main, play
from engine.base import Action
from engine.flippers import GAME
from engine.flippers.scoring import scores
from tests.ai.helpers import positions


def test_a_match_reports_the_first_levels_lead_in_final_points(monkeypatch: pytest.MonkeyPatch) -> None:
    finals: list[Any] = []
    monkeypatch.setattr("bench.ladder.side_won", lambda game, state, seat: finals.append(state) or 0.0)
    match = play("flippers", ("greedy", "random"), 2, 1, 4, Budget(None, 0))
    totals = [row["total"] for row in scores(finals[0])]
    assert match.lead == totals[1] - totals[0]
    assert match.times["greedy"]


def test_a_level_that_sees_hands_is_dealt_every_true_hand_and_no_other_level_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reached = positions("flippers", 6, {}, 11, 40)
    next(reached)
    state, seat = next(reached)
    view = GAME.view(state, seat)
    dealt: list[list[list[str]]] = []

    def spy(key: str, view: dict[str, Any], seat: int, level: str, seed: int, **_: Any) -> Action:
        dealt.append(bots()[key].determinize(view, seat, random.Random(seed)).hands)
        return {"type": "pass"}

    monkeypatch.setattr("bench.ladder.choose_action", spy)
    budget = Budget(None, 0, 1.5, sees_hands=frozenset({"hard"}))
    decide("flippers", "hard", view, seat, 5, budget, state)
    decide("flippers", "easy", view, seat, 5, budget, state)
    decide("flippers", "hard", view, seat, 5, budget, state)
    assert dealt[0] == state.hands
    assert dealt[1] != state.hands
    assert dealt[2] == state.hands
    assert bots()["flippers"].determinize(view, seat, random.Random(5)).hands == dealt[1]


def test_seeing_hands_in_a_game_it_cannot_deal_is_refused_before_any_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["bench.ladder", "--game", "tank", "--sees-hands", "hard"])
    with pytest.raises(SystemExit):
        main()
    assert "--sees-hands deals Flippers worlds only" in capsys.readouterr().err
