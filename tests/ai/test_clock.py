"""Check the search clock: one budget, its share used on each kind of clock, and the deadline's cap."""

from __future__ import annotations

import pytest

from ai.clock import PLAYOUT_WORK, Clock, now


def test_a_clock_needs_exactly_one_budget() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Clock()
    with pytest.raises(ValueError, match="exactly one"):
        Clock(seconds=1.0, playouts=10)


def test_a_virtual_clock_counts_work_at_its_rate() -> None:
    clock = Clock(seconds=2.0, rate=100.0)
    clock.spend(50 - PLAYOUT_WORK)
    assert clock.used() == pytest.approx(0.25)
    clock.spend(150 - PLAYOUT_WORK)
    assert clock.used() == pytest.approx(1.0)
    assert not clock.real


def test_a_playout_budget_counts_playouts() -> None:
    clock = Clock(playouts=4)
    clock.spend(1000)
    assert clock.used() == pytest.approx(0.25)
    assert clock.playouts_left() == 3


def test_a_passed_deadline_uses_the_whole_budget() -> None:
    clock = Clock(seconds=100.0, rate=1.0, deadline=now() - 1)
    assert clock.used() >= 1.0
    assert Clock(seconds=100.0, rate=1.0, deadline=now() + 100).used() < 1.0


def test_only_a_passed_deadline_is_overdue() -> None:
    assert Clock(seconds=1.0, deadline=now() - 1).overdue()
    assert not Clock(seconds=1.0, deadline=now() + 100).overdue()
    assert not Clock(seconds=1.0).overdue()
