"""A clock the tests move by hand, read by the database in place of the wall clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


class Clock:
    """Stand in for the wall clock: the database reads it, the test moves it on."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        """Return the test's current time."""
        return self.now

    def advance(self, hours: float) -> None:
        """Move the time on by some hours."""
        self.now += timedelta(hours=hours)
