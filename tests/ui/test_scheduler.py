"""Check reminder wording, and that the scheduler and start-up read saved games a batch at a time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bench.scheduler import NOW, StubBot, run, seed
from i18n import using
from storage.database import Database
from storage.errors import DatabaseUnavailable
from ui.flow import GameFlow
from ui.scheduler import Scheduler, hours, reminder


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.1, "6 minutes"), (1 / 60, "1 minute"), (1, "1 hour"), (1.5, "1.5 hours"), (12.2, "12 hours"), (36, "36 hours")],
)
def test_waits_read_naturally(value: float, text: str) -> None:
    assert hours(value) == text


@pytest.mark.parametrize(
    ("language", "value", "text"),
    [
        ("de", 1, "1 Stunde"),
        ("de", 1.5, "1,5 Stunden"),
        ("de", 0.1, "6 Minuten"),
        ("ja", 36, "36時間"),
        ("ja", 0.5, "30分"),
    ],
)
def test_waits_read_naturally_in_each_language(language: str, value: float, text: str) -> None:
    with using(language):
        assert hours(value) == text


def test_a_reminder_reads_in_the_games_language_with_its_wait_and_link() -> None:
    link = "https://discord.com/channels/1/2/3"
    assert reminder(["<@5>"], "Flippers", 9, 1, link) == (
        f"<@5>, a reminder: Flippers (game #9) has waited for you for 1 hour. Board: {link}"
    )
    with using("de"):
        assert reminder(["<@5>"], "Flippers", 9, 2.5, None) == (
            "<@5>, eine Erinnerung: „Flippers“ (Spiel #9) wartet seit 2,5 Stunden auf deinen Zug."
        )
    with using("ja"):
        assert reminder(["<@5>", "<@6>"], "Flippers", 9, 1, link) == (
            f"<@5>と<@6>、リマインダーです：『Flippers』（ゲーム #9）があなたの手番を1時間待っています。盤面：{link}"
        )


async def test_ten_thousand_saved_games_never_stall_the_event_loop(tmp_path: Path) -> None:
    census, figures = await run(10_000, str(tmp_path))
    assert figures.reminders == census.due  # exactly the games that waited past their reminder
    assert figures.repeated == 0  # once per wait
    assert figures.scheduled == census.bot_turns  # start-up resumes exactly the computer players' turns
    # the real figure is measured by bench.scheduler; this bound only catches a stall, in the loop thread's CPU
    # time (a busy machine stretches the wall clock, not the work done on the loop)
    assert figures.first_tick_cpu < 500
    assert figures.second_tick_cpu < 500
    assert figures.resume_cpu < 500


async def test_a_damaged_save_is_reported_once_not_at_every_check(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = str(tmp_path / "games.db")
    db = Database(path, clock=lambda: NOW)
    await db.open()
    try:
        seed(path, 10)
        await db.backend.execute("UPDATE games SET state = '{broken' WHERE id = 3")
        bot = StubBot()
        scheduler = Scheduler(GameFlow(bot, db, workers="thread"))  # type: ignore[arg-type]
        for _ in range(3):
            await scheduler.tick()
        assert len([r for r in caplog.records if "game 3 has a damaged save" in r.getMessage()]) == 1
        assert len(bot.sent) == 0  # none of the ten waited past its reminder
    finally:
        await db.close()


class ReadyBot(StubBot):
    """A stub client that is ready at once."""

    async def wait_until_ready(self) -> None:
        """Return at once: the stub is always connected."""


async def test_the_reminder_check_outlives_database_errors_and_reminds_at_a_later_check(tmp_path: Path) -> None:
    path = str(tmp_path / "games.db")
    db = Database(path, clock=lambda: NOW)
    await db.open()
    try:
        seed(path, 10, due_every=2)
        bot = ReadyBot()
        scheduler = Scheduler(GameFlow(bot, db, workers="thread"), interval=0.05)  # type: ignore[arg-type]
        due_games = db.due_games
        failures = [DatabaseUnavailable("ConnectionRefusedError: connect call failed", transient=True),
                    RuntimeError("a driver error nobody foresaw")]
        calls = 0

        async def failing_first(*args: Any) -> Any:
            nonlocal calls
            calls += 1
            if failures:
                raise failures.pop(0)
            return await due_games(*args)

        db.due_games = failing_first  # type: ignore[method-assign]
        checking = asyncio.create_task(scheduler.run())
        try:
            for _ in range(400):
                if bot.sent:
                    break
                await asyncio.sleep(0.05)
        finally:
            checking.cancel()
        assert calls >= 3 and bot.sent, (calls, bot.sent)
    finally:
        await db.close()
