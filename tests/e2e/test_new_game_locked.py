"""/game new while another writer holds the SQLite database: the player reads what happened, in time."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from config import Settings
from storage.database import sqlite_path
from tests.e2e.helpers_games import floe_settings_for, start_floe
from tests.harness import Driver, FakeDiscord
from ui.limits import LimitSettings


def hold_write_lock(path: str, seconds: float, locked: threading.Event) -> None:
    """Hold the database's write lock from another connection for a while, as a stuck writer would."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        locked.set()
        time.sleep(seconds)
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_lobby_opened_while_the_database_is_locked_is_shown_or_refused_never_hidden(
    driver: Driver, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    settings: Settings = replace(
        floe_settings_for(tmp_path, fake_discord), limits=LimitSettings(per_user=None, per_channel=None)
    )
    bot = await start_floe(driver, settings)
    alice = driver.user("alice")
    for seconds in (1.0, 2.0, 2.8, 5.0):
        channel = fake_discord.add_text_channel(driver.guild, f"locked-{seconds:g}")
        locked = threading.Event()
        holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, sqlite_path(bot.db.path), seconds, locked))
        await asyncio.to_thread(locked.wait, 5)
        result = await driver.slash(alice, "/game new game:fish", channel=channel).settle(within=30)
        await holder
        assert result.accepted and not result.rejections, (seconds, result.interaction.describe())
        visible = [m for m in result.messages if not m.deleted]
        assert visible, (seconds, result.interaction.describe())
        row = await bot.db.open_game_in(channel.id)
        if row is None:
            assert "nothing was changed" in visible[-1].content, (seconds, visible[-1].content)
        else:
            assert row.board_message_id in [m.id for m in visible], (seconds, result.interaction.describe())


async def test_a_writer_taking_the_database_just_after_the_lobby_is_saved_never_makes_it_a_hidden_lobby(
    driver: Driver, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = await start_floe(driver, floe_settings_for(tmp_path, fake_discord))
    alice = driver.user("alice")
    create_game = bot.db.create_game
    holders: list[asyncio.Task[None]] = []

    async def then_locked(**kwargs: Any) -> Any:
        row = await create_game(**kwargs)
        locked = threading.Event()
        holders.append(asyncio.create_task(asyncio.to_thread(hold_write_lock, sqlite_path(bot.db.path), 4.0, locked)))
        await asyncio.to_thread(locked.wait, 5)
        return row

    bot.db.create_game = then_locked  # type: ignore[method-assign]
    result = await driver.slash(alice, "/game new game:fish remind_after:6", channel=driver.channel).settle(within=30)
    await asyncio.gather(*holders)
    assert result.accepted and not result.rejections, result.interaction.describe()
    texts = [m.content for m in result.messages if not m.deleted]
    assert not any("nothing was changed" in text for text in texts), texts
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and row.reminder_hours == 6
    for _ in range(100):
        row = await bot.db.game(row.id)
        if row is not None and row.board_message_id is not None:
            break
        await asyncio.sleep(0.1)
    assert row is not None and row.board_message_id in [m.id for m in result.messages], result.interaction.describe()
