"""Restart PostgreSQL under running games: players are told plainly, nothing is lost, every game goes on."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import Settings
from storage.database import ACTIVE, Database
from tests.e2e.helpers_games import start_floe
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeUser
from tests.postgres import REQUIRE, PostgresServer, PostgresUnavailable, start_server
from ui.limits import LimitSettings

UNAVAILABLE = "The bot cannot save games right now, so nothing was changed."


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """Run a PostgreSQL server of this test's own, since the test stops and restarts it."""
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    yield server
    server.stop()


async def answered(driver: Driver, user: FakeUser, command: str, channel: FakeChannel) -> str:
    """Run a slash command and return its answer."""
    return (await driver.slash(user, command, channel=channel).answered(within=30)).content


async def versions(db: Database, ids: list[int]) -> dict[int, int]:
    """Return each game's saved version."""
    return {game_id: (await db.game(game_id)).version for game_id in ids}  # type: ignore[union-attr]


async def test_a_postgresql_restart_mid_game_is_weathered(
    own_postgres: PostgresServer, fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:  # own_postgres first: it is set up first and stopped last, after the bot
    url = await own_postgres.new_schema()
    settings = Settings(
        token=fake_discord.token,
        database_url=url,
        answers_dir=str(tmp_path),
        dev_guild_id=fake_discord.guild.id,
        db_pool_size=4,
        limits=LimitSettings(per_user=None, per_channel=None),  # alice opens three games in seconds
    )
    bot = await start_floe(driver, settings, bot_pause=0.4)
    alice = driver.user("alice")
    person = driver.channel
    robots = [driver.fake.add_text_channel(driver.guild, f"robots-{n}") for n in range(2)]

    # A person plays against a computer player; two games are played by computer players alone.
    await answered(driver, alice, "/game new game:fish", person)
    await answered(driver, alice, "/game addbot level:easy", person)
    await answered(driver, alice, "/game start", person)
    for channel in robots:
        await answered(driver, alice, "/game new game:fish", channel)
        await answered(driver, alice, "/game addbot level:easy", channel)
        await answered(driver, alice, "/game start", channel)
        await answered(driver, alice, "/game resign hand_to_bot:easy", channel)
    robot_games = [(await bot.db.open_game_in(channel.id)).id for channel in robots]  # type: ignore[union-attr]
    human = await bot.db.open_game_in(person.id)
    assert human is not None

    own_postgres.halt()
    try:
        await asyncio.sleep(1.0)
        answer = await answered(driver, alice, "/fish place tile:0,0", person)
        assert UNAVAILABLE in answer, answer
        await asyncio.sleep(2.0)
    finally:
        own_postgres.resume()
    back = time.monotonic()
    before = await versions(bot.db, robot_games)

    # Nothing the player tried was saved, and every game goes on within 10 s of the server being back.
    row = await bot.db.game(human.id)
    assert row is not None and row.version == human.version
    while True:
        now = await versions(bot.db, robot_games)
        moved = {g for g in robot_games if now[g] > before[g]}
        finished = {g for g in robot_games if (await bot.db.game(g)).status != ACTIVE}  # type: ignore[union-attr]
        if moved | finished == set(robot_games):
            break
        assert time.monotonic() - back < 10, f"computer players stalled after the restart: {before} -> {now}"
        await asyncio.sleep(0.2)
    tile = (await driver.autocomplete(alice, "/fish place tile:", channel=person))[0]["value"]
    answer = await answered(driver, alice, f"/fish place tile:{tile}", person)
    assert UNAVAILABLE not in answer
    assert time.monotonic() - back < 10
    row = await bot.db.game(human.id)
    assert row is not None and row.version > human.version

    await driver.stop_bot(bot)
    errors = driver.take_bot_errors()
    assert len(errors) == 1, [e.getMessage() for e in errors]
    assert errors[0].levelno == logging.ERROR and "the database is unavailable" in errors[0].getMessage()


async def test_a_read_only_database_is_named_to_players_logged_once_and_recovers(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(
        token=fake_discord.token, database_url=f"sqlite:///{tmp_path / 'floe.db'}", dev_guild_id=fake_discord.guild.id
    )
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await answered(driver, alice, "/game new game:fish", driver.channel)
    await answered(driver, bob, "/game join", driver.channel)
    await answered(driver, alice, "/game start", driver.channel)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None
    mover = alice if row.seat_of(alice.id) == 0 else bob

    await bot.db.backend.writer.execute("PRAGMA query_only = ON")  # every write now fails as on a read-only file
    caplog.set_level(logging.WARNING, logger="storage")
    for _ in range(3):  # three tries during one incident
        tile = (await driver.autocomplete(mover, "/fish place tile:"))[0]["value"]
        result = await driver.slash(mover, f"/fish place tile:{tile}").answered(within=10)
        assert result.ephemeral and UNAVAILABLE in result.content, result.content
    assert (await bot.db.game(row.id)).version == row.version  # type: ignore[union-attr]
    errors = driver.take_bot_errors()
    assert len(errors) == 1 and "readonly database" in errors[0].getMessage(), [e.getMessage() for e in errors]

    await bot.db.backend.writer.execute("PRAGMA query_only = OFF")  # storage is back: the next move just works
    tile = (await driver.autocomplete(mover, "/fish place tile:"))[0]["value"]
    result = await driver.slash(mover, f"/fish place tile:{tile}").answered(within=10)
    assert not result.ephemeral, result.content
    assert (await bot.db.game(row.id)).version == row.version + 1  # type: ignore[union-attr]
    assert "the database answers again" in caplog.text
    assert driver.take_bot_errors() == []
