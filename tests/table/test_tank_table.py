"""A whole game of 10 Gallon Tank played by taps on the table while the other player uses slash commands."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from playwright.async_api import Browser
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot import IceFloeBot
from engine.registry import get
from engine.tank.grid import label
from storage.database import FINISHED
from tests.harness import Driver, FakeDiscord, FakeUser
from tests.table.browser import DESKTOP, PHONE, WAIT_MS, Table, open_table
from tests.table.conftest import table_url
from tests.table.fakes import FakeAccount, FakeOAuth

QUIET = 0.01
SHOTS = "ICE_FLOE_TABLE_SCREENSHOTS"
"""Set to a folder to save a mid-game phone screenshot there (how docs/screenshots/table-tank.png is made)."""


def shot_path(game: str, viewport: dict[str, int]) -> str | None:
    """Return where to save a mid-game screenshot (table-<game>.png, or -desktop.png), or None when not asked to."""
    folder = os.environ.get(SHOTS)
    name = f"table-{game}.png" if viewport == PHONE else f"table-{game}-desktop.png"
    return os.path.join(folder, name) if folder else None


async def start_tank(driver: Driver, host: FakeUser, guest: FakeUser) -> None:
    """Open a 10 Gallon Tank lobby, seat the guest and start."""
    await driver.slash(host, "/game new game:tank").settle(quiet=QUIET)
    await driver.slash(guest, "/game join").settle(quiet=QUIET)
    await driver.slash(host, "/game start").settle(quiet=QUIET)


def command(action: dict[str, Any]) -> str:
    """Return the slash command a player types for an action."""
    if action["type"] == "split":
        return f"/tank split group:{label(action['group'])} line:{action['line']}"
    if action["type"] == "take":
        return f"/tank take group:{label(action['group'])}"
    if action["type"] == "discard":
        return f"/tank discard card:{action['card']}"
    return "/tank discard card:keep"


async def slash_move(driver: Driver, bot: IceFloeBot, player: FakeUser, rng: random.Random) -> None:
    """Let a player make a legal move by slash command, as they would in the channel."""
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and row.state is not None
    game = get("tank")
    state = game.load(row.state)
    action = rng.choice(game.legal_actions(state, row.seat_of(player.id) or 0))
    await driver.slash(player, command(action)).settle(quiet=QUIET)
    after = await bot.db.game(row.id)
    assert after is not None and after.version == row.version + 1, command(action)


async def touch(table: Table, selector: str) -> None:
    """Tap what `selector` finds first with a finger on a phone, or click it with a mouse on a desktop."""
    target = table.frame.locator(selector).first
    try:
        await (target.tap(timeout=WAIT_MS) if table.page.viewport_size == PHONE else target.click(timeout=WAIT_MS))
    except PlaywrightTimeout:
        drawn, held = await table.versions()
        raise AssertionError(
            f"nothing to tap at {selector}: the board shows version {drawn} of {held}; page errors: {table.errors}"
        ) from None


async def tap_move(table: Table, state: dict[str, Any], rng: random.Random, shot: str | None = None) -> dict[str, Any]:
    """Make one of the seat's legal moves by tapping: a cut line, a group, a fish to discard, or keep; return it.

    With `shot`, save a screenshot there once the line or group is picked, before it is confirmed.
    """
    action = rng.choice(state["table"]["actions"])
    if action["type"] == "split":
        await touch(table, f'.tk-cut[data-line="{action["line"]}"][data-group="{label(action["group"])}"]')
        prompt = await table.frame.locator(".tk-prompt").inner_text()
        assert prompt.startswith(f"Split group {label(action['group'])}:")
        if shot:
            await table.screenshot(shot)
    elif action["type"] == "take":
        await touch(table, f'.tk-take[data-group="{label(action["group"])}"]')
    elif action["type"] == "discard":
        await touch(table, f'.tk-pickable[data-card="{action["card"]}"]')
    await touch(table, ".tk-keep" if action["type"] == "keep" else ".tk-confirm")
    return action


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_a_whole_tank_game_by_taps_while_the_other_player_uses_slash_commands(
    driver: Driver,
    fake_discord: FakeDiscord,
    floe_table: IceFloeBot,
    fake_oauth: FakeOAuth,
    browser: Browser,
    viewport: dict[str, int],
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_tank(driver, alice, bob)
    table = await open_table(
        browser, fake_oauth, FakeAccount(alice.id, "alice"), table_url(floe_table), driver.channel.id, driver.guild.id,
        viewport=viewport,
    )  # fmt: skip
    rng = random.Random(5)
    taps: list[dict[str, Any]] = []
    shots = 0
    while (row := await floe_table.db.open_game_in(driver.channel.id)) is not None:
        state = await table.wait_version(row.version)  # a move made in the channel shows on the table
        assert state["version"] == row.version and state["seat"] == 0
        assert await table.layout_problems() == [], state["version"]
        assert (state["table"]["mine"] is not None) and all("hands" not in k for k in state["table"])
        shot = None
        if len(taps) >= 6 and state["table"]["actions"] and state["table"]["phase"] == "split" and not shots:
            shot, shots = shot_path("tank", viewport), 1
        if 0 in state["table"]["to_act"]:
            taps.append(await tap_move(table, state, rng, shot))
            await table.wait_version(row.version + 1)
            fresh = await floe_table.db.game(row.id)
            assert fresh is not None and fresh.version > row.version  # saved before the table heard of it
        else:
            assert state["table"]["actions"] == []
            await slash_move(driver, floe_table, bob, rng)
    finished = await floe_table.db.games_with_status(FINISHED)
    assert len(finished) == 1 and len(taps) >= 8
    final = await table.wait_version(finished[0].version)
    assert final["status"] == "finished" and "over" in final["table"]["status"].lower()
    assert await table.layout_problems() == []
    assert table.errors == []  # nothing the page threw or logged as an error on the way
    logged = [entry["action"] for entry in await floe_table.db.actions(finished[0].id) if entry["seat"] == 0]
    assert logged == taps  # every tap was the engine's own action, saved as it was sent
