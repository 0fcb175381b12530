"""Right after a game ends: /game status and /game hint show its final standings, and /game new opens at once."""

from __future__ import annotations

import pytest

from config import Settings
from storage.database import FINISHED
from tests.e2e.helpers_games import NAMES, QUIET, open_lobby, seed_games, start_floe
from tests.harness import Driver


async def test_status_and_hint_after_the_last_move_show_the_final_standings_and_new_is_not_refused(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 7)
    bot = await start_floe(driver, floe_settings)
    alice, bob = (driver.user(n) for n in NAMES[:2])
    row = await open_lobby(driver, bot, [alice, bob], "/game new game:fish")
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    for _ in range(2):  # typed while the game is on: refused, and not counted against a /game new later
        busy = await driver.slash(alice, "/game new game:fish").settle(quiet=QUIET)
        assert busy.ephemeral and "This channel already has a game" in busy.content, busy.content
    await driver.slash(bob, "/game resign").settle(quiet=QUIET)
    ended = await bot.db.game(row.id)
    assert ended is not None and ended.status == FINISHED
    posted = len(driver.messages())
    for command in ("/game status", "/game hint"):
        shown = await driver.slash(bob, command).settle(quiet=QUIET)
        assert shown.ephemeral, shown.content
        assert f"Game #{row.id} (Hey, That's My Fish!) has just ended." in shown.content, shown.content
        assert "**Final standings**" in shown.content and shown.message.attachments, shown.content
    assert len(driver.messages()) == posted, "nothing is posted in the channel"
    again = await driver.slash(alice, "/game new game:fish").settle(quiet=QUIET)
    assert not again.ephemeral and again.message.embeds, again.content
