"""End-to-end play across days through the fake Discord: reminders, timeouts, lists, threads and settings."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Any

import pytest
import pytest_asyncio

from bot import IceFloeBot
from config import Settings
from storage.database import GuildSettings
from tests.clock import Clock
from tests.e2e import helpers_games as games
from tests.e2e.helpers_games import seed_games
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeMessage, FakeUser

REMINDER = re.compile(
    r"^<@(\d+)>, a reminder: (.+) \(game #(\d+)\) has waited for you for (\d+(?:\.\d)?) (?:hours?|minutes?)\."
)
TURN_PING = re.compile(r"<@(\d+)>, it's your turn\.")



@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the bot deal every game from seed 1 instead of SystemRandom, so runs repeat."""
    seed_games(monkeypatch, 1)


async def start_floe(driver: Driver, settings: Settings, clock: Clock, **options: Any) -> IceFloeBot:
    """Start Ice Floe on the test's clock and let its first reminder check run."""
    bot = await games.start_floe(driver, settings, clock=clock, **options)
    await driver.idle(quiet=0.01)
    return bot


@pytest_asyncio.fixture
async def floe(driver: Driver, floe_settings: Settings, clock: Clock) -> IceFloeBot:
    """Run Ice Floe on the test's clock."""
    return await start_floe(driver, floe_settings, clock)


async def tick(driver: Driver, bot: IceFloeBot) -> list[FakeMessage]:
    """Run one reminder check and return the messages it posted, in any channel or DM."""
    before = max(driver.fake.messages, default=0)
    await bot.scheduler.tick()
    await asyncio.wait_for(bot.flow.bots.idle(), timeout=10)
    await driver.idle(quiet=0.01)
    return [m for i, m in sorted(driver.fake.messages.items()) if i > before and not m.ephemeral]


async def open_game(
    driver: Driver, host: FakeUser, guests: list[FakeUser], command: str = "/game new game:fish", **where: Any
) -> FakeMessage:
    """Open a lobby, seat the guests with /game join, start, and return the first board."""
    lobby = await driver.slash(host, command, **where).settle(quiet=0.01)
    assert not lobby.ephemeral, lobby.content
    for guest in guests:
        joined = await driver.slash(guest, "/game join", **where).settle(quiet=0.01)
        assert not joined.ephemeral, joined.content
    started = await driver.slash(host, "/game start", **where).settle(quiet=0.01)
    assert not started.ephemeral and started.message.attachments, started.content
    return started.message


async def place(driver: Driver, player: FakeUser, channel: FakeChannel | None = None) -> FakeMessage:
    """Place one of the player's penguins on the first free tile offered, and return the new board."""
    tile = (await driver.autocomplete(player, "/fish place tile:", channel=channel))[0]["value"]
    placed = await driver.slash(player, f"/fish place tile:{tile}", channel=channel).settle(quiet=0.01)
    assert not placed.ephemeral, placed.content
    return placed.message


def pinged(message: FakeMessage) -> set[int]:
    """Return the ids of the users a turn ping on a board names."""
    return {int(i) for i in TURN_PING.findall(message.content)}


def reminded(message: FakeMessage) -> int:
    """Return the id of the user a reminder names, failing if the message is no reminder."""
    match = REMINDER.search(message.content)
    assert match, f"not a reminder: {message.content!r}"
    return int(match.group(1))


def pings_allowed(fake: FakeDiscord, message: FakeMessage) -> bool:
    """Tell whether the bot let a message ping the users it mentions (allowed_mentions)."""
    for call in fake.calls_to("POST /channels/{channel_id}/messages"):
        if isinstance(call.response, dict) and call.response.get("id") == str(message.id):
            allowed = (call.json or {}).get("allowed_mentions") or {}
            return "users" in allowed.get("parse", []) or bool(allowed.get("users"))
    raise LookupError(f"no POST created message {message.id}")


async def test_reminder_pings_once_per_wait_and_by_dm_for_those_who_opted_in(
    driver: Driver, floe: IceFloeBot, clock: Clock
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob])
    opted = await driver.slash(bob, "/game notify setting:on").settle(quiet=0.01)
    assert opted.ephemeral and "direct message" in opted.content

    clock.advance(11.5)
    assert await tick(driver, floe) == []
    clock.advance(0.75)
    first = await tick(driver, floe)
    assert len(first) == 1 and first[0].channel_id == driver.channel.id, [m.content for m in first]
    assert reminded(first[0]) == alice.id and "12 hours" in first[0].content, first[0].content
    assert "https://discord.com/channels/" in first[0].content and pings_allowed(driver.fake, first[0])
    assert driver.dm_messages(alice) == []
    assert await tick(driver, floe) == []
    clock.advance(30)
    assert await tick(driver, floe) == []

    await place(driver, alice)
    clock.advance(13)
    second = await tick(driver, floe)
    in_channel = [m for m in second if m.channel_id == driver.channel.id]
    assert len(in_channel) == 1 and reminded(in_channel[0]) == bob.id, [m.content for m in second]
    dms = driver.dm_messages(bob)
    assert len(dms) == 1 and "your turn" in dms[0].content and "game #1" in dms[0].content, dms
    assert await tick(driver, floe) == []


async def test_overdue_reminder_fires_at_the_first_check_after_a_restart(
    driver: Driver, floe: IceFloeBot, floe_settings: Settings, clock: Clock
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    board = await open_game(driver, alice, [bob])
    await driver.stop_bot(floe)
    clock.advance(40)
    await start_floe(driver, floe_settings, clock)
    reminder = await driver.wait_for_message(check=lambda m: "a reminder" in m.content, after=board, within=15)
    assert reminded(reminder) == alice.id and "40 hours" in reminder.content, reminder.content
    assert [m for m in driver.messages() if "a reminder" in m.content] == [reminder]


async def test_game_and_server_reminder_delays(driver: Driver, floe: IceFloeBot, clock: Clock) -> None:
    alice, bob, carol, dave = (driver.user(name) for name in ("alice", "bob", "carol", "dave"))
    admin = driver.user("admin", manage_guild=True)
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    await open_game(driver, alice, [bob], "/game new game:fish remind_after:2")
    await open_game(driver, carol, [dave], channel=general)
    changed = await driver.slash(admin, "/game settings reminder_hours:1").settle(quiet=0.01)
    assert changed.ephemeral and changed.content.startswith("Saved. Reminder after 1 hour"), changed.content

    clock.advance(1.5)
    due = await tick(driver, floe)
    assert [(m.channel_id, reminded(m)) for m in due] == [(general.id, carol.id)], [m.content for m in due]
    clock.advance(1)
    due = await tick(driver, floe)
    assert [(m.channel_id, reminded(m)) for m in due] == [(driver.channel.id, alice.id)], [m.content for m in due]


async def test_settings_are_visible_to_everyone_but_changed_only_with_manage_server(
    driver: Driver, floe: IceFloeBot
) -> None:
    bob, admin = driver.user("bob"), driver.user("admin", manage_guild=True)
    shown = await driver.slash(bob, "/game settings").settle(quiet=0.01)
    assert shown.ephemeral and "Reminder after 12 hours" in shown.content, shown.content
    refused = await driver.slash(bob, "/game settings reminder_hours:2 thread_default:true").settle(quiet=0.01)
    assert refused.ephemeral and "Manage Server" in refused.content, refused.content
    assert await floe.db.guild_settings(driver.guild.id) == GuildSettings()
    saved = await driver.slash(admin, "/game settings timeout_hours:48 thread_default:true").settle(quiet=0.01)
    assert saved.ephemeral and "timeout 48 hours" in saved.content and "thread: yes" in saved.content, saved.content
    again = await driver.slash(bob, "/game settings").settle(quiet=0.01)
    assert again.content == saved.content.removeprefix("Saved. "), again.content
    opened = await driver.slash(bob, "/game new game:fish").settle(quiet=0.01)
    (thread,) = driver.guild.threads()
    assert opened.content.endswith(f"the lobby is open in <#{thread.id}>."), opened.content
    assert driver.last_message(thread).embeds, "no lobby in the new thread"


async def test_server_thread_default_still_lets_a_thread_host_a_game(driver: Driver, floe: IceFloeBot) -> None:
    admin, alice = driver.user("admin", manage_guild=True), driver.user("alice")
    await driver.slash(admin, "/game settings thread_default:true").settle(quiet=0.01)
    chat = driver.thread("chat")
    opened = await driver.slash(alice, "/game new game:fish", channel=chat).settle(quiet=0.01)
    assert not opened.ephemeral and opened.message.embeds, opened.content
    assert (await floe.db.open_game_in(chat.id)) is not None


async def test_timeout_lets_the_easy_computer_play_the_waiting_turn(
    driver: Driver, floe: IceFloeBot, clock: Clock
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    board = await open_game(driver, alice, [bob], "/game new game:fish timeout_after:24")
    clock.advance(13)
    assert [reminded(m) for m in await tick(driver, floe)] == [alice.id]
    clock.advance(12)
    posted = await tick(driver, floe)
    assert len(posted) == 2, [m.content for m in posted]
    notice, moved = posted
    assert notice.content.startswith("⏰ Alice did not play within 24 hours"), notice.content
    assert moved.content.startswith("Alice placed a penguin on") and pinged(moved) == {bob.id}, moved.content
    assert moved.attachments and all(c.get("disabled") for c in board.interactive_components())
    row = await floe.db.open_game_in(driver.channel.id)
    assert row is not None and not row.seats[0].is_bot and len(await floe.db.actions(row.id)) == 1
    assert await tick(driver, floe) == []


async def test_timeout_plays_the_whole_of_a_turn_with_several_actions(
    driver: Driver, floe: IceFloeBot, clock: Clock
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob], "/game new game:flippers timeout_after:1")
    for player in (alice, bob, alice):  # the first player is drawn at random: each places a Leader in turn
        if cells := await driver.autocomplete(player, "/flippers leader cell:"):
            await driver.slash(player, f"/flippers leader cell:{cells[0]['value']}").settle(quiet=0.01)
    for player in (alice, bob):
        cards = await driver.autocomplete(player, "/flippers discard cards:")
        await driver.slash(player, f"/flippers discard cards:{cards[0]['value']}").settle(quiet=0.01)
    for _ in range(4):
        clock.advance(1.5)
        posted = [m for m in await tick(driver, floe) if m.channel_id == driver.channel.id]
        late = re.match(r"⏰ (\w+) did not play", posted[0].content)
        assert late, [m.content for m in posted]
        assert pinged(posted[-1]) != {{"Alice": alice, "Bob": bob}[late.group(1)].id}, posted[-1].content


async def test_list_and_mine_show_waiting_games(driver: Driver, floe_settings: Settings, clock: Clock) -> None:
    await start_floe(driver, replace(floe_settings, dev_guild_id=None), clock)
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    board = await open_game(driver, alice, [bob])
    await driver.slash(carol, "/game new game:tank", channel=general).settle(quiet=0.01)

    listed = await driver.slash(carol, "/game list").settle(quiet=0.01)
    lines = listed.content.splitlines()
    assert listed.ephemeral and lines[0] == "**2 open games**", listed.content
    link = f"https://discord.com/channels/{driver.guild.id}/{driver.channel.id}/{board.id}"
    assert lines[1].startswith(f"#1 Hey, That's My Fish! in <#{driver.channel.id}>: waiting for Alice"), lines
    assert lines[1].endswith(link), lines[1]
    assert lines[2].startswith(f"#2 10 Gallon Tank in <#{general.id}>: lobby (1 seated)"), lines

    mine = await driver.slash(alice, "/game mine").settle(quiet=0.01)
    assert mine.ephemeral and mine.content.startswith("**1 game waits for you**") and link in mine.content
    assert "No game is waiting" in (await driver.slash(bob, "/game mine").settle(quiet=0.01)).content
    in_dm = await driver.slash(alice, "/game mine", channel=driver.dm_channel(alice)).settle(quiet=0.01)
    assert in_dm.content == mine.content, in_dm.content
    await place(driver, alice)
    in_dm = await driver.slash(bob, "/game mine", channel=driver.dm_channel(bob)).settle(quiet=0.01)
    assert "#1 Hey, That's My Fish!" in in_dm.content, in_dm.content


async def open_game_in_thread(driver: Driver, host: FakeUser, guest: FakeUser, thread: FakeChannel) -> None:
    """Seat a guest in the thread's lobby and start the game there."""
    joined = await driver.slash(guest, "/game join", channel=thread).settle(quiet=0.01)
    assert not joined.ephemeral, joined.content
    started = await driver.slash(host, "/game start", channel=thread).settle(quiet=0.01)
    assert started.message.channel_id == thread.id and pinged(started.message) == {host.id}


async def test_games_in_two_threads_of_one_channel(driver: Driver, floe: IceFloeBot) -> None:
    alice, bob, carol, dave = (driver.user(name) for name in ("alice", "bob", "carol", "dave"))
    threads: list[FakeChannel] = []
    for host, guest in ((alice, bob), (carol, dave)):
        opened = await driver.slash(host, "/game new game:fish thread:true").settle(quiet=0.01)
        thread = driver.guild.threads()[-1]
        assert not opened.ephemeral and f"<#{thread.id}>" in opened.content, opened.content
        assert thread.parent_id == driver.channel.id and thread.name == f"Hey, That's My Fish! · {host.name.title()}"
        lobby = driver.last_message(thread)
        assert lobby.embeds and "lobby" in lobby.text, lobby.text
        await open_game_in_thread(driver, host, guest, thread)
        threads.append(thread)
    for (host, _), thread in zip(((alice, bob), (carol, dave)), threads, strict=True):
        board = await place(driver, host, thread)
        assert board.channel_id == thread.id and board.attachments
    assert not [m for m in driver.messages() if m.attachments], "a board was posted in the parent channel"
    rows = [await floe.db.open_game_in(t.id) for t in threads]
    assert [r.id for r in rows if r] == [1, 2]
