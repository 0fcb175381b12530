"""End-to-end checks that a rated game cannot be escaped by cancelling it or by stalling (storage/fairness.py)."""

from __future__ import annotations

import pytest

from bot import IceFloeBot
from storage import ratings
from storage.database import CANCELLED, FINISHED
from storage.fairness import STALL_HOURS
from tests.clock import Clock
from tests.e2e.test_async_play import floe as floe_fixture
from tests.e2e.test_async_play import open_game, place, seeded, tick  # noqa: F401 (seeded: a fixture)
from tests.harness import Driver

pytestmark = pytest.mark.usefixtures("seeded")
floe = floe_fixture


async def test_a_rated_game_can_be_cancelled_only_inside_its_abort_window(driver: Driver, floe: IceFloeBot) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob])
    await place(driver, alice)  # one move each is still inside the window
    await place(driver, bob)
    aborted = await driver.slash(alice, "/game cancel").settle(quiet=0.01)
    assert not aborted.ephemeral and "was cancelled" in aborted.content, aborted.content
    assert (await floe.db.game(1)).status == CANCELLED  # type: ignore[union-attr]

    await open_game(driver, alice, [bob])
    for _ in range(2):
        await place(driver, alice)
        await place(driver, bob)
    # Before: the host could cancel a rated game at any point, with no consequence to a rating.
    refused = await driver.slash(alice, "/game cancel").settle(quiet=0.01)
    assert refused.ephemeral and "can no longer cancel it" in refused.content, refused.content
    assert (await floe.db.game(2)).status != CANCELLED  # type: ignore[union-attr]
    moderator = driver.user("mod", manage_guild=True)  # a moderator who does not play may still end it
    ended = await driver.slash(moderator, "/game cancel").settle(quiet=0.01)
    assert not ended.ephemeral and (await floe.db.game(2)).status == CANCELLED, ended.content  # type: ignore[union-attr]


async def test_stalling_in_a_rated_game_without_a_timeout_counts_as_resigning(
    driver: Driver, floe: IceFloeBot, clock: Clock
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob])
    for _ in range(2):
        await place(driver, alice)
        await place(driver, bob)
    # Before: with no timeout set (the default), alice could stop playing and the game was never rated.
    clock.advance(STALL_HOURS - 1)
    assert not any("did not play" in m.content for m in await tick(driver, floe))
    clock.advance(1.5)
    posted = await tick(driver, floe)
    assert any("Alice did not play within 72 hours in this rated game" in m.content for m in posted), posted
    row = await floe.db.game(1)
    assert row is not None and row.status == FINISHED
    await ratings.catch_up(floe.db, row.guild_id, "fish")
    board = {r.user_id: r for r in await ratings.leaderboard(floe.db, row.guild_id or 0, "fish")}
    assert board[bob.id].mu > 25.0 > board[alice.id].mu


async def test_a_casual_game_still_waits_without_a_timeout(driver: Driver, floe: IceFloeBot, clock: Clock) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob], "/game new game:fish rated:false")
    for _ in range(2):
        await place(driver, alice)
        await place(driver, bob)
    clock.advance(STALL_HOURS * 3)
    await tick(driver, floe)
    assert (await floe.db.game(1)).status != FINISHED  # type: ignore[union-attr]
