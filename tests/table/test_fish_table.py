"""A whole game of Hey, That's My Fish! played by taps on the table while the other player uses slash commands."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from PIL import Image
from playwright.async_api import Browser

from bot import IceFloeBot
from engine.registry import get
from storage.database import FINISHED
from tests.harness import Driver, FakeDiscord, FakeUser
from tests.table.browser import DESKTOP, PHONE, Table, open_table
from tests.table.conftest import table_url
from tests.table.fakes import FakeAccount, FakeOAuth

QUIET = 0.01
SHOTS = "ICE_FLOE_TABLE_SHOTS"
"""A folder to keep the mid-game screenshots in (docs/screenshots/ takes them); else the test's own tmp."""


async def start_fish(driver: Driver, host: FakeUser, guest: FakeUser) -> None:
    """Open a fish lobby, seat the guest and start."""
    await driver.slash(host, "/game new game:fish").settle(quiet=QUIET)
    await driver.slash(guest, "/game join").settle(quiet=QUIET)
    await driver.slash(host, "/game start").settle(quiet=QUIET)


async def slash_move(driver: Driver, bot: IceFloeBot, player: FakeUser, rng: random.Random) -> None:
    """Let a player make a legal move by slash command, as they would in the channel."""
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and row.state is not None
    game = get("fish")
    state = game.load(row.state)
    action = rng.choice(game.legal_actions(state, row.seat_of(player.id) or 0))
    if action["type"] == "place":
        command = f"/fish place tile:{action['tile']}"
    else:
        command = f"/fish move from:{action['from']} to:{action['to']}"
    result = await driver.slash(player, command).settle(quiet=QUIET)
    assert not result.ephemeral or "Done" in result.text, result.text


async def tap_move(table: Table, state: dict, rng: random.Random, shot: Path | None = None) -> None:
    """Make one of the lit moves by tapping: a tile to place on, or a penguin then one of its lit tiles.

    With `shot`, a screenshot is saved while the penguin is picked and its destinations are lit.
    """
    action = rng.choice(state["table"]["actions"])
    if action["type"] == "place":
        await table.frame.locator(f'[data-tile="{action["tile"]}"].target').wait_for(timeout=5000)
        await table.tap(action["tile"])
        return
    await table.tap(action["from"])
    lit = table.frame.locator(f'[data-tile="{action["to"]}"].target')
    await lit.wait_for(timeout=5000)  # the penguin's destinations light up
    assert await table.frame.locator(".penguin.selected").count() == 1
    if shot is not None:
        assert await table.layout_problems() == []
        await table.screenshot(str(shot))
    await table.tap(action["to"])


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_a_whole_fish_game_by_taps_while_the_other_player_uses_slash_commands(
    driver: Driver,
    fake_discord: FakeDiscord,
    floe_table: IceFloeBot,
    fake_oauth: FakeOAuth,
    browser: Browser,
    viewport: dict[str, int],
    tmp_path: Path,
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_fish(driver, alice, bob)
    table = await open_table(
        browser,
        fake_oauth,
        FakeAccount(alice.id, "alice"),
        table_url(floe_table),
        driver.channel.id,
        driver.guild.id,
        viewport=viewport,
    )
    rng = random.Random(3)
    shots = Path(os.environ.get(SHOTS, tmp_path))
    shot = shots / f"table-fish-{'phone' if viewport == PHONE else 'desktop'}.png"
    checked = 0
    taps = 0
    while True:
        row = await floe_table.db.open_game_in(driver.channel.id)
        if row is None:
            break
        state = await table.wait_version(row.version)  # a move made in the channel shows on the table
        assert state["version"] == row.version and state["seat"] == 0
        if checked < 3 or (state["table"]["phase"] == "play" and checked < 4):
            assert await table.layout_problems() == []
            picture = await table.screenshot()
            assert picture.size == (viewport["width"], viewport["height"])
            checked += 1
        if state["table"]["to_act"] == [0]:
            midgame = state["table"]["phase"] == "play" and state["table"]["moves"] >= 6 and not shot.exists()
            await tap_move(table, state, rng, shot if midgame else None)
            taps += 1
            await table.wait_version(row.version + 1)
            fresh = await floe_table.db.game(row.id)
            assert fresh is not None and fresh.version > row.version  # saved before the table heard of it
        else:
            assert state["table"]["actions"] == []
            await slash_move(driver, floe_table, bob, rng)
    finished = await floe_table.db.games_with_status(FINISHED)
    assert len(finished) == 1 and taps >= 4
    assert shot.exists() and Image.open(shot).size == (viewport["width"], viewport["height"])
    final = await table.wait_version(finished[0].version)
    assert final["status"] == "finished" and "over" in final["table"]["status"].lower()
    assert await table.layout_problems() == []
    assert table.errors == []  # nothing the page threw or logged as an error on the way
    # Every table move was posted in the channel as a board, like a slash command's.
    logged = await floe_table.db.actions(finished[0].id)
    assert sum(1 for entry in logged if entry["seat"] == 0) == taps
    await driver.idle(quiet=0.5, tasks=False)  # the last board is posted after the move is saved and pushed
    said = "\n".join(m.content for m in fake_discord.messages_in(driver.channel) if m.attachments)
    for entry in logged:
        action = entry["action"]
        line = f"{action['from']}→{action['to']}" if action["type"] == "move" else f"a penguin on {action['tile']}."
        assert line in said, line


async def test_the_layout_checks_find_what_is_outside_too_small_or_too_fine(
    driver: Driver, floe_table: IceFloeBot, fake_oauth: FakeOAuth, browser: Browser
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_fish(driver, alice, bob)
    url = table_url(floe_table)
    table = await open_table(
        browser, fake_oauth, FakeAccount(alice.id, "alice"), url, driver.channel.id, driver.guild.id
    )
    assert await table.layout_problems() == []
    await table.frame.evaluate(
        """() => {
        const wide = document.createElement("div");
        wide.style.cssText = "position:fixed;left:300px;top:10px;width:200px;height:20px";
        const fine = document.createElement("p");
        fine.style.fontSize = "10px";
        fine.textContent = "tiny";
        const small = document.createElement("button");
        small.style.cssText = "width:30px;height:30px";
        document.body.append(wide, fine, small);
    }"""
    )
    problems = await table.layout_problems()
    assert any(p.startswith("outside the viewport: div") for p in problems), problems
    assert any(p.startswith("text under 12 px: p") for p in problems), problems
    assert any(p.startswith("target under 44 px: button") for p in problems), problems


async def test_the_table_speaks_the_language_of_the_players_discord(
    driver: Driver, floe_table: IceFloeBot, fake_oauth: FakeOAuth, browser: Browser
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_fish(driver, alice, bob)
    url, channel, guild = table_url(floe_table), driver.channel.id, driver.guild.id
    german = await open_table(browser, fake_oauth, FakeAccount(alice.id, "alice"), url, channel, guild, locale="de")
    assert await german.frame.locator("#prompt").text_content() == (
        "Du bist dran: Tippe auf ein leuchtendes 1-Fisch-Feld, um einen Pinguin zu setzen."
    )
    assert "0 Fische" in (await german.frame.locator("#seats").text_content() or "")
    japanese = await open_table(browser, fake_oauth, FakeAccount(bob.id, "bob"), url, channel, guild, locale="ja")
    one_fish = next(t["label"] for t in (await japanese.wait_version(0))["table"]["tiles"] if t["fish"] == 1)
    await japanese.tap(one_fish)
    assert await japanese.toast() == "あなたの手番ではありません。今はAliceの手番です。"  # refusals too
