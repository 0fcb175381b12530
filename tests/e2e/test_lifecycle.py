"""End-to-end: games that outlive their channel (deleted channels and threads, lost permissions, locked or
archived threads, a removed bot), through the fake Discord."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
import pytest_asyncio

from bot import IceFloeBot
from config import Settings
from storage.database import ABANDONED, ACTIVE, GameRow
from tests.clock import Clock
from tests.e2e.helpers_games import seed_games
from tests.e2e.test_async_play import open_game, place, start_floe, tick
from tests.harness import Driver, FakeChannel, FakeMessage, FakeUser
from tests.harness.models import ATTACH_FILES, MANAGE_THREADS, SEND_MESSAGES
from ui.limits import LimitSettings

EMBED_LINKS = 1 << 14
POSTS = "POST /channels/{channel_id}/messages"


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from seed 1, so Alice (seat 0) always moves first."""
    seed_games(monkeypatch, 1)


@pytest_asyncio.fixture
async def floe(driver: Driver, floe_settings: Settings, clock: Clock) -> IceFloeBot:
    """Run Ice Floe on the test's clock."""
    return await start_floe(driver, floe_settings, clock)


async def game_in(floe: IceFloeBot, channel: FakeChannel) -> GameRow:
    """Return the newest game of a channel."""
    row = await floe.db.latest_game_in(channel.id)
    assert row is not None
    return row


async def settled_status(driver: Driver, floe: IceFloeBot, game_id: int, status: str) -> GameRow:
    """Wait until a game reaches a status and return it."""
    rows: dict[str, GameRow | None] = {}

    async def reached() -> bool:
        rows["row"] = await floe.db.game(game_id)
        return rows["row"] is not None and rows["row"].status == status

    for _ in range(500):  # up to 10 s on a busy machine
        if await reached():
            await driver.idle(quiet=0.01)
            row = rows["row"]
            assert row is not None
            return row
        await driver.fake.changed(0.02)
    raise AssertionError(f"game {game_id} never became {status}: {rows.get('row')}")


def dms(driver: Driver, user: FakeUser) -> list[str]:
    """Return the texts of the DMs a user got."""
    return [m.content for m in driver.dm_messages(user)]


def lines_about(caplog: pytest.LogCaptureFixture, game_id: int) -> list[logging.LogRecord]:
    """Return the bot's log records that name a game (none may carry a stack trace)."""
    found = [r for r in caplog.records if r.name.startswith("ui.") and f"game {game_id} " in r.getMessage()]
    assert all(r.exc_info is None for r in found), [r.getMessage() for r in found]
    return found


async def channel_posts(driver: Driver, floe: IceFloeBot) -> list[FakeMessage]:
    """Run one reminder check and return what it posted in server channels (not DMs)."""
    return [m for m in await tick(driver, floe) if m.guild_id is not None]


async def test_a_deleted_channel_ends_its_game_as_abandoned_and_tells_each_player_once(
    driver: Driver, floe: IceFloeBot, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    alice, bob = driver.user("alice"), driver.user("bob", dms_closed=True)
    room = driver.fake.add_text_channel(driver.guild, "table-2")
    await open_game(driver, alice, [bob], channel=room)
    game_id = (await game_in(floe, room)).id
    await place(driver, alice, room)

    driver.fake.remove_channel(room)
    row = await settled_status(driver, floe, game_id, ABANDONED)
    assert row.due_at is None and len(await floe.db.actions(game_id)) == 1  # kept in history
    (told,) = dms(driver, alice)
    assert f"game #{game_id}" in told and "deleted" in told and "no winner" in told, told
    assert dms(driver, bob) == []  # DMs closed: silently skipped
    stats = await driver.slash(alice, "/game stats").settle(quiet=0.01)
    assert "has not finished a game" in stats.content, stats.content
    history = await driver.slash(alice, f"/game history game_number:{game_id}").settle(quiet=0.01)
    assert "page 1 of 1" in history.content, history.content

    posts = len(driver.fake.calls_to(POSTS))
    clock.advance(200)
    assert await tick(driver, floe) == []
    assert len(driver.fake.calls_to(POSTS)) == posts  # its timers stopped: nothing is tried
    assert [r.levelname for r in lines_about(caplog, game_id)] == ["INFO"]


async def test_a_deleted_archived_thread_ends_its_game(driver: Driver, floe: IceFloeBot) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await driver.slash(alice, "/game new game:fish thread:true").settle(quiet=0.01)
    (thread,) = driver.guild.threads()
    assert thread.auto_archive_duration == 10080  # the longest Discord allows
    await driver.slash(bob, "/game join", channel=thread).settle(quiet=0.01)
    await driver.slash(alice, "/game start", channel=thread).settle(quiet=0.01)
    game_id = (await game_in(floe, thread)).id
    driver.fake.set_thread(thread, archived=True)  # archived threads leave discord.py's cache
    await driver.idle(quiet=0.01)

    driver.fake.remove_channel(thread)
    await settled_status(driver, floe, game_id, ABANDONED)
    assert len(dms(driver, alice)) == len(dms(driver, bob)) == 1


async def test_a_channel_deleted_while_the_bot_was_away_ends_the_game_at_the_next_post(
    driver: Driver, floe: IceFloeBot, floe_settings: Settings, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    alice, bob = driver.user("alice"), driver.user("bob")
    room = driver.fake.add_text_channel(driver.guild, "table-3")
    await open_game(driver, alice, [bob], "/game new game:fish timeout_after:24", channel=room)
    game_id = (await game_in(floe, room)).id
    await driver.stop_bot(floe)
    driver.fake.remove_channel(room)
    clock.advance(30)
    again = await start_floe(driver, floe_settings, clock)  # the first check finds the turn timed out
    row = await settled_status(driver, again, game_id, ABANDONED)
    assert len(await again.db.actions(game_id)) == 0  # the computer did not move into a channel that is gone
    assert row.due_at is None and len(dms(driver, alice)) == len(dms(driver, bob)) == 1
    assert driver.fake.calls_to(POSTS, status=404)
    posts = len(driver.fake.calls_to(POSTS))
    clock.advance(30)
    assert await tick(driver, again) == [] and len(driver.fake.calls_to(POSTS)) == posts
    assert [r.levelname for r in lines_about(caplog, game_id)] == ["INFO"]


async def test_missing_permissions_pause_the_game_until_a_post_succeeds_again(
    driver: Driver, floe: IceFloeBot, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob], "/game new game:fish timeout_after:24")
    game_id = (await game_in(floe, driver.channel)).id
    driver.fake.deny_bot(driver.channel, SEND_MESSAGES)
    clock.advance(13)
    assert await channel_posts(driver, floe) == []  # the reminder is refused (403 50013)
    row = await floe.db.game(game_id)
    assert row is not None and row.paused and row.due_at is None
    (told,) = dms(driver, alice)  # the host, once, in plain words
    assert f"game #{game_id}) is paused" in told and "missing the permission Send Messages" in told, told

    refused = len(driver.fake.calls_to(POSTS, status=403))
    for _ in range(5):
        clock.advance(24)
        assert await tick(driver, floe) == []
    assert len(driver.fake.calls_to(POSTS, status=403)) == refused  # no retry storm
    assert len(dms(driver, alice)) == 1

    status = await driver.slash(bob, "/game status").settle(quiet=0.01)
    notes = [m.content for m in status.messages if m.ephemeral]
    assert notes and "is paused" in notes[0] and "Send Messages" in notes[0], [m.content for m in status.messages]
    again = await driver.slash(bob, "/game status").settle(quiet=0.01)
    assert not [m for m in again.messages if m.ephemeral], "told a second time"

    driver.fake.allow_bot(driver.channel)
    await driver.wait_for_message(check=lambda m: "I can post here again" in m.content, within=5)
    await driver.idle(quiet=0.01)
    board = driver.last_message()
    assert board.attachments and f"<@{alice.id}>, it's your turn." in board.content, board.content
    row = await floe.db.game(game_id)
    assert row is not None and not row.paused and row.board_message_id == board.id
    clock.advance(10)
    assert await tick(driver, floe) == []
    clock.advance(1.5)  # 13 hours waited before the pause + 11.5 after it: past the 24-hour timeout
    notice, moved = await channel_posts(driver, floe)
    assert notice.content.startswith("⏰ Alice did not play within 24 hours"), notice.content
    assert f"<@{bob.id}>, it's your turn." in moved.content, moved.content
    levels = [r.levelname for r in lines_about(caplog, game_id)]
    assert levels == ["WARNING", "INFO"], levels  # paused once, resumed once


async def test_a_computer_move_that_cannot_be_posted_pauses_instead_of_retrying(
    driver: Driver, floe: IceFloeBot, clock: Clock
) -> None:
    alice = driver.user("alice")
    await driver.slash(alice, "/game new game:fish").settle(quiet=0.01)
    await driver.slash(alice, "/game addbot").settle(quiet=0.01)
    await driver.slash(alice, "/game start").settle(quiet=0.01)
    game_id = (await game_in(floe, driver.channel)).id
    driver.fake.deny_bot(driver.channel, ATTACH_FILES)
    await place(driver, alice)  # Alice's own board is her interaction's reply; the computer's is refused
    await floe.flow.bots.idle()
    await driver.idle(quiet=0.01)
    row = await floe.db.game(game_id)
    assert row is not None and row.paused and row.version == 3, row
    (told,) = dms(driver, alice)
    assert "missing the permission Attach Files" in told, told
    refused = len(driver.fake.calls_to(POSTS, status=403))
    clock.advance(48)
    await tick(driver, floe)
    assert len(driver.fake.calls_to(POSTS, status=403)) == refused

    before = driver.last_message()
    driver.fake.allow_bot(driver.channel)
    board = await driver.wait_for_message(check=lambda m: bool(m.attachments), after=before, within=5)
    await driver.idle(quiet=0.01)
    assert f"<@{alice.id}>, it's your turn." in board.content, board.content  # the computer's move, shown at last
    assert not (await floe.db.game(game_id)).paused


async def test_game_new_refuses_where_the_bot_lacks_permissions(driver: Driver, floe: IceFloeBot) -> None:
    alice = driver.user("alice")
    driver.fake.deny_bot(driver.channel, ATTACH_FILES | EMBED_LINKS)
    refused = await driver.slash(alice, "/game new game:fish").settle(quiet=0.01)
    assert refused.ephemeral and "missing Embed Links and Attach Files" in refused.content, refused.content
    assert await floe.db.open_game_in(driver.channel.id) is None
    driver.fake.allow_bot(driver.channel)
    driver.fake.deny_bot(driver.channel, 1 << 35)  # Create Public Threads
    refused = await driver.slash(alice, "/game new game:fish thread:true").settle(quiet=0.01)
    assert refused.ephemeral and "missing Create Public Threads" in refused.content, refused.content
    assert driver.guild.threads() == []
    opened = await driver.slash(alice, "/game new game:fish").settle(quiet=0.01)
    assert not opened.ephemeral and opened.message.embeds


async def test_an_archived_thread_keeps_working(driver: Driver, floe: IceFloeBot, clock: Clock) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    thread = driver.thread("fish night")
    await open_game(driver, alice, [bob], channel=thread)
    driver.fake.set_thread(thread, archived=True)
    clock.advance(13)
    (reminder,) = await tick(driver, floe)
    assert reminder.channel_id == thread.id and not thread.archived  # posting reopened it
    driver.fake.set_thread(thread, archived=True)
    board = await place(driver, alice, thread)
    assert board.channel_id == thread.id and f"<@{bob.id}>, it's your turn." in board.content


async def test_a_locked_thread_pauses_the_game_until_it_is_unlocked(
    driver: Driver, floe: IceFloeBot, clock: Clock
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    thread = driver.thread("fish night")
    await open_game(driver, alice, [bob], channel=thread)
    game_id = (await game_in(floe, thread)).id
    driver.fake.deny_bot(driver.channel, MANAGE_THREADS)
    driver.fake.set_thread(thread, locked=True)
    clock.advance(13)
    assert await channel_posts(driver, floe) == []
    row = await floe.db.game(game_id)
    assert row is not None and row.paused and "locked thread" in (row.paused_reason or "")
    (told,) = dms(driver, alice)
    assert "locked thread" in told, told
    clock.advance(48)
    assert await tick(driver, floe) == []

    driver.fake.set_thread(thread, locked=False)
    await driver.wait_for_message(thread, check=lambda m: "I can post here again" in m.content, within=5)
    await driver.idle(quiet=0.01)
    assert not (await floe.db.game(game_id)).paused


async def test_a_removed_bot_abandons_the_servers_games_and_nothing_returns_when_it_is_back(
    driver: Driver, floe_settings: Settings, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    no_rates = LimitSettings(per_user=None, per_channel=None)  # alice opens three games in seconds
    floe = await start_floe(driver, replace(floe_settings, dev_guild_id=None, limits=no_rates), clock)
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    await open_game(driver, alice, [bob])
    await driver.slash(carol, "/game new game:tank", channel=general).settle(quiet=0.01)
    other = driver.fake.add_guild("Elsewhere")
    lounge = driver.fake.add_text_channel(other, "lounge")
    for user in (alice, bob):
        driver.fake.add_member(other, user)
    await driver.idle(quiet=0.01)
    await open_game(driver, alice, [bob], channel=lounge)
    kept = (await game_in(floe, lounge)).id
    ended = [(await game_in(floe, driver.channel)).id, (await game_in(floe, general)).id]

    driver.fake.remove_bot(driver.guild)
    for game_id in ended:
        await settled_status(driver, floe, game_id, ABANDONED)
    assert (await floe.db.game(kept)).status == ACTIVE
    posts = len(driver.fake.calls_to(POSTS))
    clock.advance(13)
    reminders = await tick(driver, floe)
    assert [m.channel_id for m in reminders] == [lounge.id]  # only the other server's game goes on
    assert len(driver.fake.calls_to(POSTS)) == posts + 1

    driver.fake.add_bot_back(driver.guild)
    await driver.idle(quiet=0.05)
    clock.advance(48)
    await tick(driver, floe)
    assert all(m.channel_id == lounge.id for m in driver.fake.messages.values() if m.id > reminders[0].id)
    assert [(await floe.db.game(g)).status for g in ended] == [ABANDONED, ABANDONED]
    fresh = await driver.slash(alice, "/game new game:fish").settle(quiet=0.01)
    assert not fresh.ephemeral and "Game #" in fresh.message.embeds[0]["footer"]["text"]
    for game_id in ended:
        assert [r.levelname for r in lines_about(caplog, game_id)] == ["INFO"]


async def test_a_bot_removed_while_it_was_away_abandons_the_game_at_the_next_post(
    driver: Driver, floe: IceFloeBot, floe_settings: Settings, clock: Clock
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob])
    game_id = (await game_in(floe, driver.channel)).id
    await driver.stop_bot(floe)
    driver.fake.remove_bot(driver.guild)
    clock.advance(13)
    again = await start_floe(driver, floe_settings, clock)  # the reminder meets 403 50001 Missing Access
    await settled_status(driver, again, game_id, ABANDONED)
    assert dms(driver, alice) == []  # not "paused": nobody can give the bot its permissions back there
    refused = len(driver.fake.calls_to(POSTS, status=403))
    clock.advance(48)
    await tick(driver, again)
    assert len(driver.fake.calls_to(POSTS, status=403)) == refused
