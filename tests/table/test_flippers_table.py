"""A whole game of Flippers played by taps on the table while the other player uses slash commands."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.async_api import Browser

from bot import IceFloeBot
from engine.registry import get
from storage.database import FINISHED
from tests.harness import Driver, FakeDiscord, FakeUser
from tests.table.browser import DESKTOP, PHONE, Table, open_table
from tests.table.conftest import table_url
from tests.table.fakes import FakeAccount, FakeOAuth
from tests.table.test_tank_table import shot_path, touch

QUIET = 0.01

IN_SIGHT = """selector => [...document.querySelectorAll(selector)].filter((el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit && el.contains(hit);
}).map((el) => el.dataset.cell || el.dataset.facing)"""
"""Return the cells (or facings) of the elements a finger can reach now: in sight, not under another element."""


async def start_flippers(driver: Driver, host: FakeUser, guest: FakeUser) -> None:
    """Open a Flippers lobby, seat the guest and start."""
    await driver.slash(host, "/game new game:flippers").settle(quiet=QUIET)
    await driver.slash(guest, "/game join").settle(quiet=QUIET)
    await driver.slash(host, "/game start").settle(quiet=QUIET)


def command(action: dict[str, Any]) -> str:
    """Return the slash command a player types for an action."""
    if action["type"] == "leader":
        return f"/flippers leader cell:{action['cell']}"
    if action["type"] == "discard":
        return f"/flippers discard cards:{','.join(action['cards'])}"
    if action["type"] == "play":
        return f"/flippers play card:{action['card']} cell:{action['cell']} facing:{action['facing']}"
    return f"/flippers activate card:{action['card']}"


async def slash_move(driver: Driver, bot: IceFloeBot, player: FakeUser, rng: random.Random) -> None:
    """Let a player make a legal move by slash command (a Leader cell with one facing: the command takes none)."""
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and row.state is not None
    game = get("flippers")
    state = game.load(row.state)
    actions = game.legal_actions(state, row.seat_of(player.id) or 0)
    cells = [a["cell"] for a in actions if a["type"] == "leader"]
    action = rng.choice([a for a in actions if a["type"] != "leader" or cells.count(a["cell"]) == 1])
    await driver.slash(player, command(action)).settle(quiet=QUIET)
    after = await bot.db.game(row.id)
    assert after is not None and after.version == row.version + 1, command(action)


async def in_sight(table: Table, selector: str) -> list[str]:
    """Return the cells or facings of what `selector` finds where a tap reaches it."""
    return list(await table.frame.evaluate(IN_SIGHT, selector))


async def place(
    table: Table, rng: random.Random, legal: set[tuple[str, str]], shot: str | None = None
) -> tuple[str, str]:
    """Tap a lit cell in sight, then one of its arrows: a legal placement; return (cell, facing).

    With `shot`, save a screenshot there while the arrows are up.
    """
    cells = sorted({cell for cell, _ in legal} & set(await in_sight(table, ".fl-lit")))
    assert cells, "no lit cell can be tapped"
    cell = rng.choice(cells)
    await touch(table, f'.fl-lit[data-cell="{cell}"]')
    facings = sorted({d for c, d in legal if c == cell} & set(await in_sight(table, ".fl-facing")))
    assert facings, f"no arrow of {cell} can be tapped"
    if shot:
        await table.screenshot(shot)
    facing = rng.choice(facings)
    await touch(table, f'.fl-facing[data-facing="{facing}"]')
    return cell, facing


async def tap_move(table: Table, state: dict[str, Any], rng: random.Random, shot: str | None = None) -> dict[str, Any]:
    """Make one of the seat's legal moves by tapping; return the action the tap sent (`shot`: see `place`)."""
    actions = state["table"]["actions"]
    kind = actions[0]["type"]
    if kind == "leader":
        await touch(table, ".fl-usable")
        cell, facing = await place(table, rng, {(a["cell"], a["facing"]) for a in actions})
        return {"type": "leader", "cell": cell, "facing": facing}
    if kind == "discard":
        cards = rng.choice(actions)["cards"]
        for card in cards:
            await touch(table, f'[data-hand="{card}"]')
        await touch(table, ".fl-discard")
        return {"type": "discard", "cards": cards}
    if kind == "play":
        card = rng.choice(actions)["card"]
        await touch(table, f'[data-hand="{card}"]')
        legal = {(a["cell"], a["facing"]) for a in actions if a["card"] == card}
        cell, facing = await place(table, rng, legal, shot)
        return {"type": "play", "card": card, "cell": cell, "facing": facing, "rest": True}
    cards = {c["cell"]: c["id"] for c in state["table"]["cards"]}
    due = [cell for cell in await in_sight(table, ".fl-due") if cell in cards]
    assert due, "no card to activate can be tapped"
    cell = rng.choice(due)
    await touch(table, f'.fl-due[data-cell="{cell}"]')
    return {"type": "activate", "card": cards[cell], "rest": True}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_a_whole_flippers_game_by_taps_while_the_other_player_uses_slash_commands(
    driver: Driver,
    fake_discord: FakeDiscord,
    floe_table: IceFloeBot,
    fake_oauth: FakeOAuth,
    browser: Browser,
    viewport: dict[str, int],
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_flippers(driver, alice, bob)
    table = await open_table(
        browser, fake_oauth, FakeAccount(alice.id, "alice"), table_url(floe_table), driver.channel.id, driver.guild.id,
        viewport=viewport,
    )  # fmt: skip
    rng = random.Random(7)
    taps: list[dict[str, Any]] = []
    shots = 0
    while (row := await floe_table.db.open_game_in(driver.channel.id)) is not None:
        state = await table.wait_version(row.version)  # a move made in the channel shows on the table
        assert state["version"] == row.version and state["seat"] == 0
        assert await table.layout_problems() == [], state["version"]
        hand = state["table"]["hand"]
        assert hand is not None and {c["id"][0] for c in hand} <= {"c"}  # only alice's own (Chinstrap) cards
        actions = state["table"]["actions"]
        shot = None
        if len(taps) >= 6 and actions and actions[0]["type"] == "play" and not shots:
            shot, shots = shot_path("flippers", viewport), 1
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
