"""What the table refuses, each with a clear sentence and nothing changed: forged or expired sessions, taps out
of turn, stale taps and spectators' taps; and a table that reconnects by itself after the bot restarts."""

from __future__ import annotations

import json
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
from playwright.async_api import Browser

from bot import IceFloeBot
from tests.e2e.helpers_games import floe_settings_for, start_floe
from tests.harness import Driver, FakeDiscord, FakeUser
from tests.table.browser import open_table
from tests.table.conftest import table_url
from tests.table.fakes import CLIENT_ID, CLIENT_SECRET, FakeAccount, FakeOAuth
from tests.table.test_fish_table import start_fish

NOT_VALID = "This table session is not valid: close the table and open it again."


async def started(driver: Driver, bot: IceFloeBot) -> tuple[FakeUser, FakeUser, int]:
    """Start a fish game of alice (to move first) and bob; return them and the game's version."""
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_fish(driver, alice, bob)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and row.seat_of(alice.id) == 0
    return alice, bob, row.version


async def version(bot: IceFloeBot, driver: Driver) -> int:
    """Return the saved version of the channel's game."""
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None
    return row.version


async def socket_says(bot: IceFloeBot, query: str, *messages: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """Open a table's WebSocket, send messages, and return what it said and its close code (or 0 if open)."""
    heard: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{table_url(bot)}/table/ws?{query}") as ws:
        first = await ws.receive(timeout=5)
        if first.type == aiohttp.WSMsgType.TEXT:
            heard.append(json.loads(first.data))
        for message in messages:
            await ws.send_str(json.dumps(message))
            reply = await ws.receive(timeout=5)
            heard.append(json.loads(reply.data))
        if heard and heard[0].get("fatal"):
            await ws.receive(timeout=5)
        return heard, ws.close_code or 0


async def test_a_forged_session_is_refused_and_changes_nothing(driver: Driver, floe_table: IceFloeBot) -> None:
    _alice, _bob, before = await started(driver, floe_table)
    heard, code = await socket_says(floe_table, f"session=forged-token&channel={driver.channel.id}")
    assert heard == [{"type": "error", "id": None, "message": NOT_VALID, "fatal": "session"}] and code == 4001
    assert await version(floe_table, driver) == before


async def test_an_expired_session_is_refused(driver: Driver, floe_table: IceFloeBot) -> None:
    alice, _bob, before = await started(driver, floe_table)
    assert floe_table.table is not None
    token = await floe_table.table.sessions.issue(alice.id, "alice", "en")
    await floe_table.db.backend.execute("UPDATE table_sessions SET expires_at = 0", ())
    heard, code = await socket_says(floe_table, f"session={token}&channel={driver.channel.id}")
    assert heard[0]["message"] == "This table session has expired: close the table and open it again."
    assert code == 4001 and await version(floe_table, driver) == before


async def test_a_stale_or_illegal_move_is_refused_and_changes_nothing(driver: Driver, floe_table: IceFloeBot) -> None:
    alice, _bob, before = await started(driver, floe_table)
    assert floe_table.table is not None
    token = await floe_table.table.sessions.issue(alice.id, "alice", "de")
    place = {"type": "place", "tile": "A1"}
    stale = {"type": "move", "version": before - 1, "action": place, "id": "s1"}
    junk = {"type": "move", "version": before, "action": {"type": "place", "tile": "Z9"}, "id": "s2"}
    heard, code = await socket_says(floe_table, f"session={token}&channel={driver.channel.id}", stale, junk)
    assert heard[0]["type"] == "state" and heard[0]["version"] == before and code == 0
    assert heard[1] == {
        "type": "error",
        "id": "s1",
        "message": "Das Spiel hat sich geändert, bevor dein Tippen ankam, daher wurde es nicht ausgeführt: "
        "Sieh dir den Tisch an und tippe erneut.",
    }
    assert heard[2]["id"] == "s2" and "Z9" in heard[2]["message"]
    assert await version(floe_table, driver) == before


async def test_a_tap_out_of_turn_and_a_spectators_tap_are_refused_on_the_table(
    driver: Driver, floe_table: IceFloeBot, fake_oauth: FakeOAuth, browser: Browser
) -> None:
    _alice, bob, before = await started(driver, floe_table)
    carol = driver.user("carol")
    url, channel, guild = table_url(floe_table), driver.channel.id, driver.guild.id
    bobs = await open_table(browser, fake_oauth, FakeAccount(bob.id, "bob"), url, channel, guild)
    state = await bobs.wait_version(before)
    assert state["seat"] == 1 and state["table"]["actions"] == [] and state["table"]["prompt"] == ""
    assert await bobs.frame.locator(".target").count() == 0  # nothing lights up out of turn
    one_fish = next(t["label"] for t in state["table"]["tiles"] if t["fish"] == 1)
    await bobs.tap(one_fish)
    assert await bobs.toast() == "It is not your turn: it is Alice's turn."
    carols = await open_table(browser, fake_oauth, FakeAccount(carol.id, "carol"), url, channel, guild)
    watching = await carols.wait_version(before)
    assert watching["seat"] is None
    assert (
        await carols.frame.locator("#prompt").text_content()
        == "You are watching: only the players of this game can move."
    )
    await carols.tap(one_fish)
    assert await carols.toast() == "You are watching this game: only its players can move."
    assert await version(floe_table, driver) == before
    assert await carols.layout_problems() == []  # the message fits the phone too


async def test_a_forged_code_gets_no_session(
    driver: Driver, floe_table: IceFloeBot, fake_oauth: FakeOAuth, browser: Browser
) -> None:
    await started(driver, floe_table)
    stranger = FakeAccount(99, "mallory")
    fake_oauth.code_for = lambda account: "forged-code"  # type: ignore[method-assign]
    table = await open_table(browser, fake_oauth, stranger, table_url(floe_table), driver.channel.id, driver.guild.id)
    text = await table.frame.locator(".message").text_content()
    assert text == "Discord did not let the table know who you are: close the table and open it again."
    assert fake_oauth.exchanges and fake_oauth.exchanges[0]["code"] == "forged-code"


def free_port() -> int:
    """Return a port of 127.0.0.1 that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_table_reconnects_by_itself_after_the_bot_restarts(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, browser: Browser, tmp_path: Path
) -> None:
    settings = replace(
        floe_settings_for(tmp_path, fake_discord),
        table_port=free_port(),
        discord_client_id=CLIENT_ID,
        discord_client_secret=CLIENT_SECRET,
        discord_api=fake_oauth.url,
    )
    bot = await start_floe(driver, settings)
    alice, _bob, before = await started(driver, bot)
    table = await open_table(
        browser, fake_oauth, FakeAccount(alice.id, "alice"), table_url(bot), driver.channel.id, driver.guild.id
    )
    await table.wait_version(before)
    await driver.stop_bot(bot)
    assert await table.toast() == "Connection lost: reconnecting…"
    again = await start_floe(driver, settings)
    await table.frame.locator("#toast").wait_for(state="hidden", timeout=10_000)  # a new state came: reconnected
    state = await table.wait_version(before)  # the same session, kept in the database, still holds
    assert state["seat"] == 0
    one_fish = next(t for t in state["table"]["actions"])["tile"]
    await table.tap(one_fish)
    assert (await table.wait_version(before + 1))["table"]["penguins"] == [{"seat": 0, "tile": one_fish}]
    assert await version(again, driver) == before + 1


async def test_a_finished_game_shows_its_last_table_and_a_lobby_none(driver: Driver, floe_table: IceFloeBot) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    assert floe_table.table is not None
    token = await floe_table.table.sessions.issue(alice.id, "alice", "en")
    query = f"session={token}&channel={driver.channel.id}"
    await driver.slash(alice, "/game new game:fish").settle()  # a lobby is not a table yet
    heard, code = await socket_says(floe_table, query)
    assert heard[0]["fatal"] == "game" and heard[0]["message"].startswith("There is no game") and code == 4004
    await driver.slash(bob, "/game join").settle()
    await driver.slash(alice, "/game start").settle()
    row = await floe_table.db.open_game_in(driver.channel.id)
    assert row is not None
    await floe_table.db.backend.execute("UPDATE games SET status = 'finished' WHERE id = ?", (row.id,))
    place = {"type": "move", "version": row.version, "action": {"type": "place", "tile": "A1"}, "id": "f1"}
    heard, code = await socket_says(floe_table, query, place)
    assert heard[0]["type"] == "state" and heard[0]["game_id"] == row.id and code == 0
    assert heard[1] == {"type": "error", "id": "f1", "message": "This game is over."}
    await driver.slash(alice, "/game new game:fish").settle()  # the next game's lobby: the last game still shows
    heard, code = await socket_says(floe_table, query)
    assert heard[0]["type"] == "state" and heard[0]["game_id"] == row.id and code == 0
