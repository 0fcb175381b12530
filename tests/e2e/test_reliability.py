"""End-to-end reliability through the fake Discord: honest refusals, server isolation and damaged rows."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from config import Settings
from storage.database import FINISHED
from tests.e2e.helpers_games import floe_settings_for, seed_games, start_floe
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult

QUIET = 0.01
GENERIC = "Something went wrong"


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from seed 3, so runs repeat."""
    seed_games(monkeypatch, 3)


@pytest.fixture
def settings(tmp_path: Path, fake_discord: FakeDiscord) -> Settings:
    """Sync commands globally, so they also work in DMs."""
    return replace(floe_settings_for(tmp_path, fake_discord), dev_guild_id=None)


async def run(driver: Driver, result: InteractionResult) -> InteractionResult:
    """Wait until an interaction is answered and the bot is idle again."""
    return await result.settle(quiet=QUIET)


async def open_game(
    driver: Driver, host: FakeUser, guests: list[FakeUser], game: str = "fish", channel: FakeChannel | None = None
) -> FakeMessage:
    """Open a lobby, seat the guests, start, and return the first board."""
    opened = await run(driver, driver.slash(host, f"/game new game:{game}", channel=channel))
    assert not opened.ephemeral, opened.content
    for guest in guests:
        joined = await run(driver, driver.slash(guest, "/game join", channel=channel))
        assert not joined.ephemeral, joined.content
    started = await run(driver, driver.slash(host, "/game start", channel=channel))
    assert started.message.attachments, started.content
    return started.message


def forged(driver: Driver, channel: FakeChannel, custom_id: str) -> FakeMessage:
    """Put a message with a button carrying `custom_id` in a channel, as a forger could."""
    button = {"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}
    payload = {"content": "press me", "components": [{"type": 1, "components": [button]}]}
    return driver.fake.create_message(channel, driver.fake.bot_user, payload, [])


async def refused(driver: Driver, result: InteractionResult, *phrases: str) -> str:
    """Check an interaction got one private, specific refusal (never the generic apology); return it."""
    answer = await run(driver, result)
    visible = [m for m in answer.messages if not m.deleted]
    assert visible and all(m.ephemeral for m in visible), [m.content for m in visible]
    text = visible[-1].content
    assert GENERIC not in text, text
    for phrase in phrases:
        assert phrase in text, text
    return text


async def test_an_empty_flippers_discard_is_refused_clearly(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob], "flippers")
    before = await bot.db.open_game_in(driver.channel.id)
    for typed in (",", ",,,", " ,"):
        await refused(driver, driver.slash(alice, f'/flippers discard cards:"{typed}"'), "Name the card(s)")
    after = await bot.db.open_game_in(driver.channel.id)
    assert before is not None and after is not None and after.version == before.version


async def test_a_damaged_row_is_left_out_of_list_and_mine_and_the_rest_is_shown(
    driver: Driver, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await start_floe(driver, settings)
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    extra = driver.fake.add_text_channel(driver.guild, "more")
    await open_game(driver, alice, [bob])
    await open_game(driver, alice, [carol], channel=general)
    await open_game(driver, alice, [bob], channel=extra)
    await bot.db.conn.execute("UPDATE games SET kind = 'chess' WHERE channel_id = ?", (general.id,))
    damaged = await bot.db.open_game_in(extra.id)
    assert damaged is not None
    await bot.db.conn.execute("DELETE FROM seats WHERE seat = 0 AND game_id = ?", (damaged.id,))

    listed = await run(driver, driver.slash(carol, "/game list"))
    lines = listed.content.splitlines()
    assert lines[0] == "**1 open game(s)**" and lines[1].startswith("#1 Hey, That's My Fish!"), listed.content
    mine = await run(driver, driver.slash(alice, "/game mine"))
    assert "#1 Hey, That's My Fish!" in mine.content and GENERIC not in mine.content, mine.content
    assert "game 2 is damaged" in caplog.text and "game 3 is damaged" in caplog.text


async def test_history_and_replay_never_show_another_servers_game(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    other = driver.fake.add_guild("Elsewhere")
    elsewhere = driver.fake.add_text_channel(other, "games")
    mallory = driver.user("mallory", guild=other)
    await open_game(driver, alice, [bob])
    game = await bot.db.open_game_in(driver.channel.id)
    assert game is not None
    await bot.db.conn.execute("UPDATE games SET status = ? WHERE id = ?", (FINISHED, game.id))

    for command in (f"/game history game_number:{game.id}", f"/game replay game_number:{game.id}"):
        await refused(driver, driver.slash(mallory, command, channel=elsewhere), "No game found")
        await refused(driver, driver.slash(mallory, command, channel=driver.dm_channel(mallory)), "No game found")
    own = await run(
        driver, driver.slash(alice, f"/game history game_number:{game.id}", channel=driver.dm_channel(alice))
    )
    assert f"Game #{game.id}" in own.content, own.content
    assert not [m for m in driver.messages(elsewhere) if m.attachments], "a replay reached another server"


async def test_numbers_too_large_for_the_database_are_no_such_game(driver: Driver, settings: Settings) -> None:
    await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob])
    for number in (2**63, 2**64 + 5):
        await refused(driver, driver.slash(alice, f"/game history game_number:{number}"), "No game found")
        for token in ("0:join", "1:place#0"):
            message = forged(driver, driver.channel, f"floe:{number}:{token}")
            await refused(driver, driver.press(bob, message, label="Forged"), "no longer exists")
