"""End-to-end Flippers set-up through the fake Discord: every player discards from their own DM menu."""

from __future__ import annotations

import random
import sqlite3

import pytest

from config import Settings
from engine.flippers.state import LEADERS, SETUP
from tests.e2e.helpers_games import NAMES, QUIET, TURN_PING, seed_games, start_floe
from tests.e2e.test_flippers import DISCARDS, FlippersTable
from tests.harness import Driver, FakeMessage


def discard_menu(message: FakeMessage) -> dict[str, object] | None:
    """Return the discard select of a DM, if it has one."""
    found = [c for c in message.interactive_components() if str(c.get("placeholder", "")).startswith("Discard ")]
    return found[0] if found else None


@pytest.mark.parametrize("players", [2, 3, 4])  # 5 and 6 set every drawn card aside: no choice
async def test_each_discard_menu_stays_live_until_its_player_has_discarded(
    players: int, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 500 + players)
    bot = await start_floe(driver, floe_settings)
    people = [driver.user(n) for n in NAMES[:players]]
    table = FlippersTable(driver, bot, people, random.Random(players))
    await table.open()
    while (await table.state()).phase == LEADERS:
        await table.play_turn()
    state = await table.state()
    assert state.phase == SETUP
    menus = {}
    for player in people:
        dm = driver.dm_messages(player)[-1]
        menu = discard_menu(dm)
        assert menu is not None and not menu.get("disabled"), dm.content
        assert "use the menu below" in dm.content, dm.content
        menus[player.id] = (dm, menu)
    order = people[::-1]
    for n, player in enumerate(order):
        dm, menu = menus[player.id]
        seat = people.index(player)
        picked = state.hands[seat][: DISCARDS[players]]
        answer = await driver.select(player, dm, picked, custom_id=str(menu["custom_id"])).settle(quiet=QUIET)
        assert "You discarded" in answer.content, answer.content
        done = await table.state()
        assert sorted(done.discards[seat]) == sorted(picked)
        for waiting in order[n + 1 :]:
            still, _ = menus[waiting.id]
            live = discard_menu(still)
            assert live is not None and not live.get("disabled"), f"{waiting.name}'s discard menu was greyed out"
        used = discard_menu(dm)
        assert used is None or used.get("disabled"), f"{player.name}'s menu stays live after discarding"
    assert (await table.state()).phase != SETUP


def standing_pings(driver: Driver) -> list[FakeMessage]:
    """Return the turn pings standing in the channel on their own (not on a board)."""
    return [m for m in driver.messages() if not m.attachments and not m.components and TURN_PING.search(m.content)]


async def six_at_the_leaders(driver: Driver, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> FlippersTable:
    """Open a 6-player game dealt from seed 506 (its Leaders are placed with pings under one board); return it."""
    seed_games(monkeypatch, 506)
    bot = await start_floe(driver, settings)
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:6]], random.Random(6))
    await table.open()
    return table


async def test_the_leader_pings_leave_only_the_newest_in_the_channel_and_no_line_repeats(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await six_at_the_leaders(driver, floe_settings, monkeypatch)
    while (await table.state()).phase in (LEADERS, SETUP):
        await table.play_turn()
    pings = standing_pings(driver)
    assert pings == [], [m.content for m in pings]  # the first turn's board pings by itself
    setup = table.boards[0]
    lines = setup.content.splitlines()
    assert len(lines) == len(set(lines)), setup.content
    assert not any(line.endswith(" to place their Leader.") for line in lines), setup.content


async def first_ping(driver: Driver, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> FlippersTable:
    """Open six at the Leaders and place them until a ping stands under the board; return the table."""
    table = await six_at_the_leaders(driver, settings, monkeypatch)
    while not standing_pings(driver):
        await table.play_turn()
    assert (await table.state()).phase == LEADERS and len(standing_pings(driver)) == 1
    return table


async def restart(driver: Driver, table: FlippersTable, settings: Settings) -> None:
    """Stop the table's bot and start a new one on the same database: it knows nothing but what was saved."""
    await driver.stop_bot(table.bot)
    table.bot = await start_floe(driver, settings)


async def test_a_restart_between_two_leader_pings_leaves_only_the_newest(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await first_ping(driver, floe_settings, monkeypatch)
    stale = standing_pings(driver)
    await restart(driver, table, floe_settings)
    await table.play_turn()
    assert (await table.state()).phase == LEADERS
    now = standing_pings(driver)
    assert len(now) == 1 and now[0] is not stale[0], [m.content for m in now]
    await restart(driver, table, floe_settings)
    while (await table.state()).phase in (LEADERS, SETUP):
        await table.play_turn()
    assert standing_pings(driver) == [], [m.content for m in standing_pings(driver)]  # the first turn pings by itself


async def test_a_ping_no_process_recorded_is_deleted_by_the_next_one_after_a_restart(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await first_ping(driver, floe_settings, monkeypatch)
    path = floe_settings.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:  # as when the bot is killed as its ping reaches Discord, before saving its id
        assert db.execute("UPDATE games SET ping_message_id = NULL").rowcount == 1
    await restart(driver, table, floe_settings)
    await table.play_turn()
    assert (await table.state()).phase == LEADERS
    assert len(standing_pings(driver)) == 1, [m.content for m in standing_pings(driver)]
