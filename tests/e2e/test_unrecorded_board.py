"""A board posted whose record could not be saved (a busy database) is still the one the next move edits."""

from __future__ import annotations

import random
from typing import Any

import pytest

from config import Settings
from engine.flippers.state import LEADERS, PLAY, SETUP
from storage.errors import DatabaseBusy
from tests.e2e.helpers_games import NAMES, QUIET, seed_games, start_floe
from tests.e2e.test_flippers import FlippersTable
from tests.harness import Driver


async def test_a_play_edits_the_newest_board_while_its_record_waits(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last discard posts turn 1's board but its record is refused: the first play still edits that board."""
    seed_games(monkeypatch, 412)
    bot = await start_floe(driver, floe_settings, outbox_interval=3600)
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:2]], random.Random(2))
    await table.open()
    while (await table.state()).phase == LEADERS:
        await table.play_turn()
    state = await table.state()
    assert state.phase == SETUP
    first, last = table.players
    offered = await driver.autocomplete(first, "/flippers discard cards:")
    await driver.slash(first, f"/flippers discard cards:{offered[0]['value']}").settle(quiet=QUIET)

    async def busy(*args: Any, **kwargs: Any) -> None:
        raise DatabaseBusy("the database is busy")

    monkeypatch.setattr(bot.db, "set_board_message", busy)  # until the end of the test: no record is saved
    offered = await driver.autocomplete(last, "/flippers discard cards:")
    await driver.slash(last, f"/flippers discard cards:{offered[0]['value']}").settle(quiet=QUIET)
    state = await table.state()
    assert state.phase == PLAY
    older, newest = [m for m in driver.messages() if m.attachments or m.components][-2:]
    assert newest.components and not older.components  # turn 1's board (its record refused), the setup's before it
    edits = len(older.versions), len(newest.versions)
    player = table.players[state.current]
    card = (await driver.autocomplete(player, "/flippers play card:"))[0]["value"]
    cell = (await driver.autocomplete(player, f"/flippers play card:{card} cell:"))[0]["value"]
    facing = (await driver.autocomplete(player, f"/flippers play card:{card} cell:{cell} facing:"))[0]["value"]
    await driver.slash(player, f"/flippers play card:{card} cell:{cell} facing:{facing}").settle(quiet=QUIET)
    await driver.idle()
    assert (len(older.versions), len(newest.versions)) == (edits[0], edits[1] + 1), "the play edited another board"
    assert cell in newest.content, newest.content
