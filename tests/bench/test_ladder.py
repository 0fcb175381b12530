"""Check the ladder reports each match's lead in final points beside who won."""

from __future__ import annotations

from typing import Any

import pytest

from bench.ladder import Budget, play
from engine.flippers.scoring import scores


def test_a_match_reports_the_first_levels_lead_in_final_points(monkeypatch: pytest.MonkeyPatch) -> None:
    finals: list[Any] = []
    monkeypatch.setattr("bench.ladder.side_won", lambda game, state, seat: finals.append(state) or 0.0)
    match = play("flippers", ("greedy", "random"), 2, 1, 4, Budget(None, 0))
    totals = [row["total"] for row in scores(finals[0])]
    assert match.lead == totals[1] - totals[0]
    assert match.times["greedy"]
