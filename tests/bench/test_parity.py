"""Check the parity bench reports every seat of a game of equals."""

from __future__ import annotations

from typing import Any

import pytest

from bench.ladder import Budget, side_won
from bench.parity import Table, play, summary
from engine.flippers.scoring import scores


def test_every_seat_gets_its_share_and_its_lead_over_the_best_other_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    finals: list[Any] = []

    def spy(game: Any, state: Any, seat: int) -> float:
        finals.append(state)
        return side_won(game, state, seat)

    monkeypatch.setattr("bench.parity.side_won", spy)
    table = play("flippers", "greedy", 3, 5, Budget(None, 0))
    totals = [row["total"] for row in scores(finals[0])]
    assert table.leads == [totals[s] - max(t for o, t in enumerate(totals) if o != s) for s in range(3)]
    assert sum(table.shares) == pytest.approx(1.0)


def test_the_summary_averages_seats_and_counts_games() -> None:
    tables = [Table([1.0, 0.0, 0.0], [3.0, -3.0, -6.0]), Table([0.0, 0.5, 0.5], [-2.0, 0.0, 0.0])]
    row = summary("flippers", "ucb", 3, tables)
    assert "| 0.33 |" in row
    assert "-1.33 ± 0.67" in row
    assert row.endswith("| 2 |")
