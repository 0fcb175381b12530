"""An open table follows the channel's next game by itself: the game shown ends, a rematch starts, the table moves."""

from __future__ import annotations

import random
from typing import Any

from playwright.async_api import Browser

from bot import IceFloeBot
from storage.database import FINISHED
from tests.harness import Driver, FakeDiscord
from tests.table.browser import DESKTOP, WAIT_MS, Table, open_table
from tests.table.conftest import table_url
from tests.table.fakes import FakeAccount, FakeOAuth
from tests.table.test_fish_table import QUIET, slash_move, start_fish, tap_move
from tests.table.test_refusals import socket_says

FOLLOWED = "The next game in this channel has started: the table shows it now."


async def wait_game(table: Table, game_id: int) -> dict[str, Any]:
    """Wait until the page shows this game; return its state."""
    await table.frame.wait_for_function(
        "id => window.iceFloeTable && window.iceFloeTable.state && window.iceFloeTable.state.game_id === id",
        arg=game_id,
        timeout=WAIT_MS,
    )
    state = await table.state()
    assert state is not None
    return state


async def test_an_open_table_follows_the_rematch_by_itself(
    driver: Driver, fake_discord: FakeDiscord, floe_table: IceFloeBot, fake_oauth: FakeOAuth, browser: Browser
) -> None:
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    await start_fish(driver, alice, bob)
    first = await floe_table.db.open_game_in(driver.channel.id)
    assert first is not None
    url, channel, guild = table_url(floe_table), driver.channel.id, driver.guild.id
    alices = await open_table(browser, fake_oauth, FakeAccount(alice.id, "alice"), url, channel, guild)
    carols = await open_table(
        browser, fake_oauth, FakeAccount(carol.id, "carol"), url, channel, guild, viewport=DESKTOP
    )
    await alices.wait_version(first.version)
    await carols.wait_version(first.version)

    await driver.slash(bob, "/game resign").settle(quiet=QUIET)  # the game shown ends
    over = await floe_table.db.game(first.id)
    assert over is not None and over.status == FINISHED
    assert (await alices.wait_version(over.version))["status"] == "finished"
    final = fake_discord.messages_in(driver.channel)[-1]
    await driver.press(bob, final, label="Rematch").settle(quiet=QUIET)
    lobby = await floe_table.db.open_game_in(driver.channel.id)
    assert lobby is not None and lobby.id != first.id
    heard, _code = await socket_says(floe_table, f"session={await session_of(floe_table, alice.id)}&channel={channel}")
    assert heard[0]["game_id"] == first.id, "while the rematch is a lobby, a table opened now shows the last game"
    assert (await alices.state() or {})["game_id"] == first.id

    await driver.slash(bob, "/game start").settle(quiet=QUIET)  # the rematch starts: both tables move to it
    rematch = await floe_table.db.open_game_in(driver.channel.id)
    assert rematch is not None and rematch.id == lobby.id and rematch.status == "active"
    state = await wait_game(alices, rematch.id)
    assert state["status"] == "active" and state["seat"] == rematch.seat_of(alice.id)
    assert await alices.toast() == FOLLOWED
    assert await alices.layout_problems() == []
    watching = await wait_game(carols, rematch.id)
    assert watching["seat"] is None and await carols.toast() == FOLLOWED
    assert await carols.layout_problems() == []

    # The new game is live on the table: a tap plays in it, a slash command shows on it.
    rng = random.Random(5)
    for _turn in range(4):
        row = await floe_table.db.game(rematch.id)
        assert row is not None
        state = await alices.wait_version(row.version)
        assert state["game_id"] == rematch.id
        if state["table"]["to_act"] == [state["seat"]]:
            await tap_move(alices, state, rng)
        else:
            await slash_move(driver, floe_table, bob, rng)
        await alices.wait_version(row.version + 1)
        await carols.wait_version(row.version + 1)
    logged = await floe_table.db.actions(rematch.id)
    assert len(logged) == 4 and any(entry["seat"] == rematch.seat_of(alice.id) for entry in logged)
    ended = [entry["action"]["type"] for entry in await floe_table.db.actions(first.id)]
    assert ended == ["resign"], "nothing was played in the finished game after it ended"


async def session_of(bot: IceFloeBot, user_id: int) -> str:
    """Return a fresh table session for a user."""
    assert bot.table is not None
    return await bot.table.sessions.issue(user_id, "someone", "en")
