"""Check reminder wording, and that the scheduler and start-up read saved games a batch at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.scheduler import run
from ui.scheduler import hours


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.1, "6 minutes"), (1 / 60, "1 minute"), (1, "1 hour"), (1.5, "1.5 hours"), (12.2, "12 hours"), (36, "36 hours")],
)
def test_waits_read_naturally(value: float, text: str) -> None:
    assert hours(value) == text


async def test_ten_thousand_saved_games_never_stall_the_event_loop(tmp_path: Path) -> None:
    census, figures = await run(10_000, str(tmp_path))
    assert figures.reminders == census.due  # exactly the games that waited past their reminder
    assert figures.repeated == 0  # once per wait
    assert figures.scheduled == census.bot_turns  # start-up resumes exactly the computer players' turns
    # the real figure is measured by bench.scheduler (a few ms); this bound only catches a stall
    assert figures.first_tick < 250
    assert figures.second_tick < 250
    assert figures.resume < 250
