"""End-to-end: a move acknowledged with "thinking…" always gets its answer, also when the bot stops before it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot import IceFloeBot
from config import Settings
from engine.registry import get
from storage.answers import PendingAnswers
from storage.database import Database
from tests.e2e.helpers_games import QUIET, floe_settings_for, seed_games, start_floe
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser
from ui import answers
from ui.answers import NOT_SAVED


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from seed 8, and check owed answers often."""
    seed_games(monkeypatch, 8)
    monkeypatch.setattr(answers, "CHECK_S", 0.2)


@pytest.fixture
def settings(tmp_path: Path, fake_discord: FakeDiscord) -> Settings:
    """Return the usual settings for a bot on a fresh database."""
    return floe_settings_for(tmp_path, fake_discord)


async def open_game(driver: Driver, host: FakeUser, guest: FakeUser) -> None:
    """Open a two-player fish game."""
    await driver.slash(host, "/game new game:fish").settle(quiet=QUIET)
    await driver.slash(guest, "/game join").settle(quiet=QUIET)
    started = await driver.slash(host, "/game start").settle(quiet=QUIET)
    assert started.message.attachments, started.content


async def fish_command(bot: IceFloeBot, players: list[FakeUser]) -> tuple[FakeUser, str]:
    """Return the player to move and a slash command for a legal move of the channel's game."""
    row = await bot.db.game(1)
    assert row is not None and row.state is not None
    game = get("fish")
    state = game.load(row.state)
    seat = game.to_act(state)[0]
    action = random.Random(row.version).choice(game.legal_actions(state, seat))
    if action["type"] == "place":
        return players[seat], f"/fish place tile:{action['tile']}"
    return players[seat], f"/fish move from:{action['from']} to:{action['to']}"


def never_posts(bot: IceFloeBot) -> asyncio.Event:
    """Make the bot hang when it posts a board (as if it died right after saving); return what it waits for."""
    forever = asyncio.Event()

    async def hang(*args: Any, **kwargs: Any) -> list[str]:
        await forever.wait()
        return []

    bot.flow.publisher.publish = hang  # type: ignore[method-assign]
    return forever


async def test_a_thinking_left_when_the_bot_stopped_is_completed_after_the_restart(
    driver: Driver, settings: Settings
) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, *players)
    never_posts(bot)
    player, command = await fish_command(bot, players)
    sent = driver.slash(player, command)
    placeholder = (await sent.acked()).original
    assert placeholder is not None and placeholder.loading
    await driver.wait_until(lambda: bool(bot.flow.answers.owed), "the move saved with its answer owed")
    assert len(await bot.db.actions(1)) == 1
    await driver.stop_bot(bot)
    assert placeholder.loading, "nothing answered it before the restart"

    bot = await start_floe(driver, settings, outbox_interval=3600)
    await driver.wait_until(lambda: not placeholder.loading, "the placeholder completed after the restart")
    row = await bot.db.game(1)
    assert row is not None and row.posted_version == row.version == 2
    link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.board_message_id}"
    assert placeholder.content == f"Your move was saved. Its board is in the channel: {link}", placeholder.content
    board: FakeMessage = driver.fake.messages[row.board_message_id or 0]
    assert board.attachments and not board.deleted
    await driver.wait_until(lambda: not bot.flow.answers.owed, "the entry dropped")
    assert await PendingAnswers(bot.db.backend).all() == []


async def test_a_move_acknowledged_early_but_never_saved_is_told_so_after_the_restart(
    driver: Driver, settings: Settings
) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, *players)
    stuck = asyncio.Event()

    async def never_saves(*args: Any, **kwargs: Any) -> Any:
        await stuck.wait()

    bot.flow.moves.handling = 10  # a deep queue: acknowledge before saving
    bot.flow.moves.commit = never_saves  # type: ignore[method-assign]
    player, command = await fish_command(bot, players)
    sent = driver.slash(player, command)
    placeholder = (await sent.acked()).original
    assert placeholder is not None and placeholder.loading
    journal = bot.flow.answers.journal  # written before the early answer, without waiting for the database
    assert journal is not None and journal.path is not None and sent.interaction.token in journal.path.read_text()
    await driver.stop_bot(bot)

    bot = await start_floe(driver, settings, outbox_interval=3600)
    await driver.wait_until(lambda: not placeholder.loading, "the placeholder completed after the restart")
    assert placeholder.content == NOT_SAVED
    await driver.wait_until(lambda: not bot.flow.answers.owed, "the entry dropped")
    assert await bot.db.actions(1) == [] and await PendingAnswers(bot.db.backend).all() == []


async def test_an_answered_move_leaves_nothing_owed(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, *players)
    for _ in range(3):
        player, command = await fish_command(bot, players)
        moved = await driver.slash(player, command).settle(quiet=QUIET)
        assert moved.message.attachments and not moved.ephemeral, moved.content
    await driver.wait_until(lambda: not bot.flow.answers._given, "the given entries dropped")
    assert bot.flow.answers.owed == {} and await PendingAnswers(bot.db.backend).all() == []


async def test_an_entry_whose_token_expired_is_dropped_at_start(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, *players)
    never_posts(bot)
    player, command = await fish_command(bot, players)
    sent = await driver.slash(player, command).acked()
    placeholder = sent.original
    assert placeholder is not None
    await driver.wait_until(lambda: bool(bot.flow.answers.owed), "the move saved with its answer owed")
    await driver.stop_bot(bot)
    db = Database(settings.database_url)
    await db.open()
    await db.backend.execute("UPDATE pending_answers SET created_at = created_at - ?", (answers.TOKEN_LIFE_S,))
    await db.close()

    bot = await start_floe(driver, settings, outbox_interval=3600)
    await asyncio.wait_for(bot.flow.answers.loaded.wait(), 10)
    assert bot.flow.answers.owed == {} and await PendingAnswers(bot.db.backend).all() == []
    await asyncio.wait_for(bot.flow.outbox.caught_up(), 10)
    row = await bot.db.game(1)
    assert row is not None and row.posted_version == row.version == 2, "the board with the move is in the channel"
    edits = driver.fake.calls_to("PATCH /webhooks/{application_id}/{token}/messages/{message_id}")
    assert not [call for call in edits if sent.interaction.token in call.path]  # its expired token is left alone


async def test_a_failure_after_the_board_replaced_the_placeholder_leaves_the_board_alone(
    driver: Driver, settings: Settings
) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, *players)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the disk is full")

    bot.flow.publisher._mark_posted = broken  # type: ignore[method-assign]
    player, command = await fish_command(bot, players)
    moved = await driver.slash(player, command).settle(quiet=QUIET)
    board = moved.original
    assert board is not None and board.attachments and not board.deleted, "the board in the placeholder stays"
    assert "it's your turn" in board.content and board.content != answers.SAVED_WAITING
    await driver.wait_until(lambda: not bot.flow.answers._answering, "nothing left in hand")
    assert bot.flow.answers.owed == {}
