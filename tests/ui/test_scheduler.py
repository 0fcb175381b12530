"""Check how waiting times are worded in reminders."""

from __future__ import annotations

import pytest

from ui.scheduler import hours


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.1, "6 minutes"), (1 / 60, "1 minute"), (1, "1 hour"), (1.5, "1.5 hours"), (12.2, "12 hours"), (36, "36 hours")],
)
def test_waits_read_naturally(value: float, text: str) -> None:
    assert hours(value) == text
