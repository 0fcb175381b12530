"""End-to-end Flippers set-up through the fake Discord: every player discards from their own DM menu."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from config import Settings
from engine.flippers.state import LEADERS, SETUP
from engine.registry import get
from tests.e2e.helpers_games import NAMES, QUIET, TURN_PING, open_lobby, seed_games, start_floe
from tests.e2e.test_flippers import DISCARDS, FlippersTable
from tests.harness import Driver, FakeMessage
from tests.harness.rest import Call


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


def saved_version(settings: Settings, game_id: int) -> int:
    """Return the version a game has saved (read from its SQLite file, whatever the bot is doing)."""
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        return int(db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0])


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


async def test_a_leader_placed_while_the_first_board_is_on_its_way_edits_that_board(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 502)
    bot = await start_floe(driver, floe_settings)
    people = [driver.user(n) for n in NAMES[:2]]
    row = await open_lobby(driver, bot, people, "/game new game:flippers")
    released = asyncio.Event()

    async def hold_the_first_board(call: Call) -> None:
        if call.files and not released.is_set():
            await released.wait()  # the first board reaches Discord only once the first Leader is saved

    driver.fake.request_hooks.append(hold_the_first_board)
    starting = driver.slash(people[0], "/game start")
    await driver.wait_until(lambda: bool(saved_version(floe_settings, row.id) >= 1), "the start saved")
    state = get("flippers").load((await bot.db.game(row.id)).state)
    seat = get("flippers").to_act(state)[0]
    cell = (await driver.autocomplete(people[seat], "/flippers leader cell:"))[0]["value"]
    placing = driver.slash(people[seat], f"/flippers leader cell:{cell}")
    await driver.wait_until(lambda: saved_version(floe_settings, row.id) >= 2, "the Leader saved")
    released.set()
    await starting.settle(quiet=QUIET)
    placed = await placing.settle(quiet=QUIET)
    await driver.idle(quiet=0.3, within=30)
    pictures = [m for m in driver.messages() if m.attachments]
    assert len(pictures) == 1, [m.content for m in pictures]
    assert placed.ephemeral and placed.content == "Done: the board in the channel shows it.", placed.content
    assert not [m for m in driver.messages() if m.loading], "a public thinking… left behind"
    fresh = await bot.db.game(row.id)
    assert fresh is not None and fresh.board_message_id == pictures[0].id and fresh.posted_version == 2


@pytest.mark.parametrize("ending", ["/game cancel", "/game resign"])
async def test_a_game_cancelled_or_left_at_the_leaders_leaves_no_turn_ping_standing(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    table = await first_ping(driver, floe_settings, monkeypatch)
    await driver.slash(table.players[0], ending).settle(quiet=0.01)
    await driver.idle()
    assert standing_pings(driver) == [], [m.content for m in standing_pings(driver)]
