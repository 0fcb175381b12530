"""Kill the real bot at exact points of a Flippers game: every interaction it acknowledged is answered after a restart.

The bot runs in its own process (tests/e2e/crash_bot.py) and is SIGKILLed when it sends one chosen request, so
the point is exact: after a secret move was saved under a private "thinking…" but before its note went out,
and after a public "thinking…" was deleted to make room for a private note but before that note went out.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from config import Settings
from tests.e2e.child_bot import BotProcess
from tests.e2e.helpers_games import start_floe
from tests.harness import Driver, FakeDiscord, FakeUser, InteractionResult
from tests.harness.rest import Call

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="kills a child process")
SAVED = "Your move was saved."


@dataclass
class Table:
    """A Flippers game for two, its players and the bot process that hosts it."""

    fake: FakeDiscord
    driver: Driver
    bot: BotProcess
    players: list[FakeUser]

    async def kill_when(
        self, sent: Callable[[], InteractionResult], wanted: Callable[[Call, str], bool], *, lands: bool
    ) -> InteractionResult:
        """Send an interaction and kill the bot as it makes the first request `wanted` picks (with its token).

        With `lands` that request reaches Discord (the bot never hears back); else it is lost with the bot.
        """
        token: list[str] = []

        async def hook(call: Call) -> tuple[int, Any] | None:
            if token and wanted(call, token[0]):
                self.fake.request_hooks.remove(hook)
                self.bot.kill()
                if not lands:
                    return 500, {"code": 0, "message": "the bot died"}
            return None

        self.fake.request_hooks.append(hook)
        result = sent()
        token.append(result.interaction.token)
        try:
            async with asyncio.timeout(20):
                await self.bot.wait()
        finally:
            with contextlib.suppress(ValueError):
                self.fake.request_hooks.remove(hook)
        return result

    async def move_of(self, option: str) -> tuple[FakeUser, str]:
        """Return a player offered a value of `option` (e.g. "/flippers leader cell:") and that move."""
        for _ in range(100):
            for player in self.players:
                if offered := await self.driver.autocomplete(player, option):
                    return player, f"{option}{offered[0]['value']}"
            await asyncio.sleep(0.1)  # the previous move's board is still being posted
        raise AssertionError(f"nobody is offered {option}")


@pytest_asyncio.fixture
async def lobby(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """Start the bot acknowledging every move before saving it, and a Flippers lobby for two."""
    driver = Driver(fake_discord, timeout=20)
    bot = BotProcess(fake_discord, tmp_path / "crash.db", tmp_path / "bot.log")
    await bot.start(ack_first=True)
    players = [driver.user("alice"), driver.user("bob")]
    try:
        for user, command in ((players[0], "/game new game:flippers"), (players[1], "/game join")):
            await driver.slash(user, command).answered()
        yield Table(fake_discord, driver, bot, players)
    finally:
        bot.kill()
        await bot.wait()


@pytest_asyncio.fixture
async def table(lobby: Table) -> Table:
    """Start the lobby's game."""
    await lobby.driver.slash(lobby.players[0], "/game start").answered()
    return lobby


async def until(driver: Driver, check: Callable[[], bool], what: str) -> None:
    """Wait for a condition the restarted bot brings about."""
    await driver.wait_until(check, what, within=30)


async def restarted(table: Table) -> None:
    """Start the killed bot again (it answers what the previous run owed)."""
    await table.bot.start()


async def test_a_secret_move_saved_under_its_thinking_is_answered_after_a_kill(table: Table) -> None:
    for _ in range(2):  # both Leaders, in place on the first board
        player, command = await table.move_of("/flippers leader cell:")
        await table.driver.slash(player, command).answered()
    player, command = await table.move_of("/flippers discard cards:")

    def private_note(call: Call, token: str) -> bool:
        return call.method == "POST" and "/webhooks/" in call.path and token in call.path  # the note goes out

    sent = await table.kill_when(lambda: table.driver.slash(player, command), private_note, lands=False)
    placeholder = sent.original
    assert placeholder is not None and placeholder.ephemeral and placeholder.loading, sent.interaction.describe()
    await restarted(table)
    await until(table.driver, lambda: not placeholder.loading, "the private thinking answered")
    assert placeholder.content.startswith(SAVED), placeholder.content


async def test_a_step_whose_thinking_was_deleted_for_its_private_note_is_answered_after_a_kill(table: Table) -> None:
    player, command = await table.move_of("/flippers leader cell:")

    def placeholder_deleted(call: Call, token: str) -> bool:
        return call.method == "DELETE" and token in call.path

    sent = await table.kill_when(lambda: table.driver.slash(player, command), placeholder_deleted, lands=True)
    assert sent.original is not None and sent.original.deleted and not sent.followups, sent.interaction.describe()

    def answered() -> bool:
        return any(m.ephemeral and m.content.startswith(SAVED) for m in sent.followups)

    await restarted(table)
    await until(table.driver, answered, "a private answer after the restart")
    assert len(sent.followups) == 1, [m.content for m in sent.followups]
    assert not any(m.loading for m in table.driver.messages() if not m.deleted)


async def test_a_start_acknowledged_before_a_kill_is_answered_after_the_restart(lobby: Table) -> None:
    acknowledged: list[Call] = []

    def after_acknowledging(call: Call, token: str) -> bool:
        if token in call.path and call.path.endswith("/callback"):
            acknowledged.append(call)  # its "thinking…"
            return False
        return bool(acknowledged)  # the next request: the game is dealt, its board not sent

    start = lobby.players[0]
    sent = await lobby.kill_when(lambda: lobby.driver.slash(start, "/game start"), after_acknowledging, lands=False)
    placeholder = sent.original
    assert placeholder is not None and placeholder.loading and not placeholder.ephemeral, sent.interaction.describe()
    await restarted(lobby)
    await until(lobby.driver, lambda: not placeholder.loading, "the start's thinking answered")
    assert placeholder.content.startswith("The game has started. Its first board is in the channel: https://")
    boards = [m for m in lobby.driver.messages() if m.attachments and not m.deleted]
    assert len(boards) == 1, [m.content[:40] for m in boards]


async def test_a_step_after_a_first_board_that_never_arrived_never_turns_the_lobby_into_a_board(
    driver: Driver, floe_settings: Settings
) -> None:
    bot = await start_floe(driver, floe_settings, outbox_interval=3600)
    alice, bob = driver.user("alice"), driver.user("bob")
    lobby = (await driver.slash(alice, "/game new game:flippers").settle(quiet=0.01)).message
    await driver.slash(bob, "/game join").settle(quiet=0.01)
    first_board_and_apology = "POST /webhooks/{application_id}/{token}"
    driver.fake.fail(first_board_and_apology, status=404, code=10015, times=2)
    driver.slash(alice, "/game start")
    await driver.idle(quiet=0.3, within=20)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and row.posted_version == 0 and row.board_message_id == lobby.id
    table = Table(driver.fake, driver, BotProcess(driver.fake, Path(), Path()), [alice, bob])
    player, command = await table.move_of("/flippers leader cell:")
    await driver.slash(player, command).settle(quiet=0.01)
    assert not lobby.attachments, "the lobby was edited into a board"
    boards = [m for m in driver.messages() if m.attachments and not m.deleted]
    assert len(boards) == 1 and "placed their Leader" in boards[0].content, [m.content[:40] for m in boards]
    driver.bot_errors.clear()  # the refused first board is logged as a warning only


async def test_a_move_acknowledged_while_the_database_is_locked_is_answered_after_a_kill(table: Table) -> None:
    player, command = await table.move_of("/flippers leader cell:")
    writer = sqlite3.connect(table.bot.database, timeout=5, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another writer holds the database: the move waits, acknowledged first

    def acknowledged(call: Call, token: str) -> bool:
        return token in call.path and call.path.endswith("/callback")

    try:
        sent = await table.kill_when(lambda: table.driver.slash(player, command), acknowledged, lands=True)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    placeholder = sent.original
    assert placeholder is not None and placeholder.loading, sent.interaction.describe()
    await restarted(table)
    await until(table.driver, lambda: not placeholder.loading, "the move's thinking answered")
    assert placeholder.content.startswith("Your move was not applied"), placeholder.content
    logged = sqlite3.connect(table.bot.database).execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert logged == 0, "the move was saved although the database was locked until the kill"


async def test_a_start_killed_as_its_first_board_lands_leaves_one_board_after_the_restart(lobby: Table) -> None:
    def first_board(call: Call, token: str) -> bool:
        return token in call.path and bool(call.files)  # the board reaches Discord; the bot never records it

    start = lobby.players[0]
    await lobby.kill_when(lambda: lobby.driver.slash(start, "/game start"), first_board, lands=True)
    await restarted(lobby)
    player, command = await lobby.move_of("/flippers leader cell:")
    await lobby.driver.slash(player, command).answered()

    def shown() -> bool:
        saved = sqlite3.connect(lobby.bot.database).execute("SELECT version, posted_version FROM games").fetchone()
        return bool(saved[0] == saved[1])

    await until(lobby.driver, shown, "the Leader's board")
    boards = [m for m in lobby.driver.messages() if m.attachments and not m.deleted]
    assert len(boards) == 1, [m.content[:60] for m in boards]
    assert "placed their Leader" in boards[0].content, boards[0].content
