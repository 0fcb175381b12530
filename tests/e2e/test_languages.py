"""Who reads which language: the game's language in its channel, each player's own in private replies and DMs.

A game takes its server's language when it is created (the /game settings choice, else the server's Discord
language, else English) and keeps it. Whatever the bot posts in the game's channel is written in it, whether
a player, a computer player, the reminder check or the outbox posts it; ephemeral replies are written in the
language of the client that asked, and DMs in the language the recipient's client showed last.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import pytest_asyncio

from bot import IceFloeBot
from config import Settings
from storage.database import ACTIVE
from storage.languages import server_language, user_language
from tests.clock import Clock
from tests.e2e.helpers_games import open_lobby, seed_games, start_floe
from tests.e2e.languages import Languages, record_languages, wrong_languages
from tests.harness import Driver, FakeUser

QUIET = 0.01


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from one seed, so runs repeat."""
    seed_games(monkeypatch, 3)


@pytest.fixture
def notes(monkeypatch: pytest.MonkeyPatch) -> Languages:
    """Note the language of every message the bot writes."""
    return record_languages(monkeypatch)


@pytest_asyncio.fixture
async def floe(driver: Driver, floe_settings: Settings, clock: Clock, notes: Languages) -> IceFloeBot:
    """Run Ice Floe on the test's clock, its REST calls noted with their language."""
    return await start_floe(driver, floe_settings, clock=clock)


def person(driver: Driver, name: str, locale: str, **options: Any) -> FakeUser:
    """Return a member of the guild whose Discord client is set to `locale`."""
    user = driver.user(name, **options)
    user.locale = locale
    return user


async def test_the_server_language_setting_needs_manage_server_and_says_what_it_set(
    driver: Driver, floe: IceFloeBot, notes: Languages
) -> None:
    owner = person(driver, "olga", "pt-BR", manage_guild=True)
    alice = person(driver, "alice", "ja")
    refused = await driver.slash(alice, "/game settings language:de").settle(quiet=QUIET)
    assert refused.ephemeral
    assert await server_language(floe.db, driver.guild.id) is None
    saved = await driver.slash(owner, "/game settings language:de").settle(quiet=QUIET)
    assert saved.ephemeral and "Deutsch" in saved.content, saved.content
    assert await server_language(floe.db, driver.guild.id) == "de"
    assert notes.of(refused.message) == {"ja"} and notes.of(saved.message) == {"pt_BR"}
    shown = await driver.slash(alice, "/game settings").settle(quiet=QUIET)
    assert "Deutsch" in shown.content and notes.of(shown.message) == {"ja"}


async def test_a_game_takes_the_server_language_when_created_and_keeps_it(driver: Driver, floe: IceFloeBot) -> None:
    driver.guild.preferred_locale = "es-419"
    owner = person(driver, "olga", "de", manage_guild=True)
    alice, bob = person(driver, "alice", "ja"), person(driver, "bob", "en-GB")
    first = await open_lobby(driver, floe, [alice, bob], "/game new game:fish")
    assert first.language == "es"  # no choice made: the server's language on Discord
    await driver.slash(owner, "/game settings language:pt_BR").settle(quiet=QUIET)
    started = await driver.slash(alice, "/game start").settle(quiet=QUIET)
    assert not started.ephemeral
    kept = await floe.db.game(first.id)
    assert kept is not None and kept.status == ACTIVE and kept.language == "es"
    other = driver.fake.add_text_channel(driver.guild, "more-games")
    await driver.slash(alice, "/game new game:tank", channel=other).settle(quiet=QUIET)
    second = await floe.db.open_game_in(other.id)
    assert second is not None and second.language == "pt_BR"


async def test_an_english_server_without_a_choice_plays_in_english(driver: Driver, floe: IceFloeBot) -> None:
    alice = person(driver, "alice", "de")
    await driver.slash(alice, "/game new game:fish").settle(quiet=QUIET)
    row = await floe.db.open_game_in(driver.channel.id)
    assert row is not None and row.language == "en"


async def test_every_post_reply_and_dm_of_a_game_reads_in_its_readers_language(
    driver: Driver, floe: IceFloeBot, notes: Languages, clock: Clock
) -> None:
    owner = person(driver, "olga", "pt-BR", manage_guild=True)
    alice, bob = person(driver, "alice", "ja"), person(driver, "bob", "es-419")
    await driver.slash(owner, "/game settings language:de").settle(quiet=QUIET)
    for player in (alice, bob):
        await driver.slash(player, "/game notify setting:on").settle(quiet=QUIET)
    row = await open_lobby(driver, floe, [alice, bob], "/game new game:flippers remind_after:1")
    assert row.language == "de"
    assert not (await driver.slash(alice, "/game start").settle(quiet=QUIET)).ephemeral  # hands go out by DM
    await driver.slash(bob, "/game hand").settle(quiet=QUIET)
    await driver.slash(owner, "/game status").settle(quiet=QUIET)  # not seated: shown to the owner alone
    await driver.slash(bob, "/game status").settle(quiet=QUIET)  # seated: posted again in the channel
    await driver.slash(alice, "/game rules game:flippers").settle(quiet=QUIET)
    clock.advance(2)  # the reminder check runs in no one's interaction: the game's language, DMs the player's
    await floe.scheduler.tick()
    await driver.idle(quiet=QUIET)
    live = await floe.db.game(row.id)
    assert live is not None
    await floe.flow.private.send(floe.flow.loader.board(live), 0)  # a hand pushed by DM, from no interaction
    for player in (alice, bob):  # computer players finish the game from here, in their own tasks
        await driver.slash(player, "/game resign hand_to_bot:easy").settle(quiet=QUIET)
    await asyncio.wait_for(floe.flow.bots.idle(), timeout=60)
    await driver.idle(quiet=QUIET)
    finished = await floe.db.game(row.id)
    assert finished is not None and finished.status != ACTIVE
    for command in ("/game replay", "/game leaderboard game:flippers", "/game stats"):  # public, public, private
        await driver.slash(owner, command).settle(within=120, quiet=QUIET)
    assert driver.dm_messages(alice) and driver.dm_messages(bob)
    wrong = wrong_languages(driver.fake, notes, public="de", private={alice.id: "ja", bob.id: "es", owner.id: "pt_BR"})
    assert not wrong, "\n".join(wrong)
    assert (await user_language(floe.db, alice.id), await user_language(floe.db, bob.id)) == ("ja", "es")


async def test_a_paused_game_resumes_with_a_notice_in_its_language(
    driver: Driver, floe: IceFloeBot, notes: Languages
) -> None:
    owner = person(driver, "olga", "ja", manage_guild=True)
    alice, bob = person(driver, "alice", "ja"), person(driver, "bob", "ja")
    await driver.slash(owner, "/game settings language:es").settle(quiet=QUIET)
    row = await open_lobby(driver, floe, [alice, bob], "/game new game:fish")
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    assert await floe.db.pause(row.id, "a test pause")
    paused = await floe.db.game(row.id)
    assert paused is not None
    before = max(driver.fake.messages)
    assert await floe.flow.lifecycle.try_resume(paused)  # from no interaction at all
    await driver.idle(quiet=QUIET)
    notice, board = [m for m in driver.messages() if m.id > before]  # "I can post here again", then the board
    assert notes.of(notice) == notes.of(board) == {"es"}
