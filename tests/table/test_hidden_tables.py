"""The tank and Flippers tables keep hands private, speak the player's language, and refuse taps out of turn."""

from __future__ import annotations

from playwright.async_api import Browser

from bot import IceFloeBot
from engine.registry import get
from table.strings import SPECTATOR_TAP
from tests.harness import Driver, FakeDiscord
from tests.table.browser import open_table
from tests.table.conftest import table_url
from tests.table.fakes import FakeAccount, FakeOAuth
from tests.table.test_flippers_table import start_flippers
from tests.table.test_tank_table import start_tank, touch


async def test_a_tank_tap_out_of_turn_is_refused_in_the_players_language_and_hands_stay_private(
    driver: Driver, fake_discord: FakeDiscord, floe_table: IceFloeBot, fake_oauth: FakeOAuth, browser: Browser
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_tank(driver, alice, bob)
    row = await floe_table.db.open_game_in(driver.channel.id)
    assert row is not None and row.state is not None
    to_act = get("tank").to_act(get("tank").load(row.state))
    waiting = alice if row.seat_of(alice.id) not in to_act else bob
    seat = row.seat_of(waiting.id)
    url = table_url(floe_table)
    account = FakeAccount(waiting.id, waiting.name, "de")
    table = await open_table(browser, fake_oauth, account, url, driver.channel.id, driver.guild.id, locale="de")
    state = await table.wait_version(row.version)
    assert state["seat"] == seat and state["table"]["actions"] == []
    assert state["table"]["heading"].startswith("Runde 1 von")
    hands = get("tank").load(row.state).hands
    assert sorted(c["id"] for k in state["table"]["mine"]["kinds"] for c in k["cards"]) == sorted(hands[seat])
    await touch(table, ".tk-cut")
    await touch(table, ".tk-confirm")
    assert (await table.toast()).startswith("Du bist nicht am Zug")
    after = await floe_table.db.game(row.id)
    assert after is not None and after.version == row.version


async def test_a_spectators_tap_on_the_flippers_table_is_refused_and_shows_no_hand(
    driver: Driver, fake_discord: FakeDiscord, floe_table: IceFloeBot, fake_oauth: FakeOAuth, browser: Browser
) -> None:
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    await start_flippers(driver, alice, bob)
    row = await floe_table.db.open_game_in(driver.channel.id)
    assert row is not None
    url = table_url(floe_table)
    account = FakeAccount(carol.id, "carol")
    table = await open_table(browser, fake_oauth, account, url, driver.channel.id, driver.guild.id)
    state = await table.wait_version(row.version)
    assert state["seat"] is None and state["table"]["hand"] is None and state["table"]["actions"] == []
    assert await table.frame.locator(".fl-usable").count() == 0  # no hand to tap
    await touch(table, ".fl-ask")  # a cell beside a Food card, where a player would put a Leader
    assert await table.toast() == SPECTATOR_TAP
    after = await floe_table.db.game(row.id)
    assert after is not None and after.version == row.version
    assert await table.layout_problems() == []
