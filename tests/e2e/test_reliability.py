"""End-to-end reliability through the fake Discord: honest refusals, server isolation and damaged rows."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import discord.http
import discord.webhook.async_
import pytest

from bot import IceFloeBot
from config import Settings
from engine.flippers.powers import available
from engine.flippers.state import PLAY
from engine.registry import get
from storage.database import FINISHED, sqlite_path
from tests.e2e.helpers_games import floe_settings_for, seed_games, start_floe
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.harness.models import iter_components
from ui.answers import SAVED_WAITING
from ui.limits import LimitSettings

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
    no_rates = LimitSettings(per_user=None, per_channel=None)  # alice opens three games in seconds
    bot = await start_floe(driver, replace(settings, limits=no_rates))
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    extra = driver.fake.add_text_channel(driver.guild, "more")
    await open_game(driver, alice, [bob])
    await open_game(driver, alice, [carol], channel=general)
    await open_game(driver, alice, [bob], channel=extra)
    await bot.db.backend.execute("UPDATE games SET kind = 'chess' WHERE channel_id = ?", (general.id,))
    damaged = await bot.db.open_game_in(extra.id)
    assert damaged is not None
    await bot.db.backend.execute("DELETE FROM seats WHERE seat = 0 AND game_id = ?", (damaged.id,))

    listed = await run(driver, driver.slash(carol, "/game list"))
    lines = listed.content.splitlines()
    assert lines[0] == "**1 open game**" and lines[1].startswith("#1 Hey, That's My Fish!"), listed.content
    mine = await run(driver, driver.slash(alice, "/game mine"))
    assert "#1 Hey, That's My Fish!" in mine.content and GENERIC not in mine.content, mine.content
    assert "game 2 is damaged" in caplog.text and "game 3 is damaged" in caplog.text
    player, command = await fish_move(bot, [alice, bob], 1, random.Random(3))
    await run(driver, driver.slash(player, command))
    await shown(driver, bot, 1)


async def test_history_and_replay_never_show_another_servers_game(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    other = driver.fake.add_guild("Elsewhere")
    elsewhere = driver.fake.add_text_channel(other, "games")
    mallory = driver.user("mallory", guild=other)
    await open_game(driver, alice, [bob])
    game = await bot.db.open_game_in(driver.channel.id)
    assert game is not None
    await bot.db.backend.execute("UPDATE games SET status = ? WHERE id = ?", (FINISHED, game.id))

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


# -- faults: every applied move ends up shown --------------------------------------------------------------


class FastRetries:
    """Stand in for the asyncio module inside discord.py's HTTP clients: its 1 s, 3 s, ... retry waits are short."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(min(delay, 0.01), result)


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make discord.py retry a failing Discord at once instead of over 25 s."""
    monkeypatch.setattr(discord.webhook.async_, "asyncio", FastRetries())
    monkeypatch.setattr(discord.http, "asyncio", FastRetries())


def board_version(message: FakeMessage) -> int | None:
    """Return the state version a board message's components carry (floe:<game>:<version>:<token>)."""
    for component in iter_components(message.components):
        custom_id = str(component.get("custom_id") or "")
        if custom_id.startswith("floe:"):
            return int(custom_id.split(":")[2])
    return None


def newest_board(driver: Driver, channel: FakeChannel | None = None) -> FakeMessage:
    """Return the newest board (a message with a picture) in a channel."""
    boards = [m for m in driver.messages(channel) if m.attachments]
    assert boards, "no board in the channel"
    return boards[-1]


async def shown(driver: Driver, bot: IceFloeBot, game_id: int, channel: FakeChannel | None = None) -> None:
    """Wait until the channel's newest board shows the game's saved version."""
    row = await bot.db.game(game_id)
    assert row is not None
    await driver.wait_until(
        lambda: board_version(newest_board(driver, channel)) == row.version,
        f"the board of version {row.version} in the channel",
        within=10,
    )


async def fish_move(
    bot: IceFloeBot, players: list[FakeUser], game_id: int, rng: random.Random
) -> tuple[FakeUser, str]:
    """Return the player to act in a fish game and a slash command for one of their legal moves."""
    row = await bot.db.game(game_id)
    assert row is not None and row.state is not None
    game = get("fish")
    state = game.load(row.state)
    seat = game.to_act(state)[0]
    action = rng.choice(game.legal_actions(state, seat))
    if action["type"] == "place":
        return players[seat], f"/fish place tile:{action['tile']}"
    return players[seat], f"/fish move from:{action['from']} to:{action['to']}"


async def test_a_persistent_500_on_the_follow_up_loses_no_move(
    driver: Driver, settings: Settings, fast_retries: None
) -> None:
    bot = await start_floe(driver, settings)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, *players[:1], players[1:])
    rng = random.Random(4)
    followup = "POST /webhooks/{application_id}/{token}"

    for times in (5, None):  # every try of the board fails; then Discord never takes a follow-up at all
        driver.fake.fail(followup, status=500, times=times)
        player, command = await fish_move(bot, players, 1, rng)
        sent = driver.slash(player, command)
        placeholder = (await sent.acked()).original
        assert placeholder is not None
        await driver.wait_until(lambda p=placeholder: not p.loading, "the mover told at once")
        assert placeholder.content == SAVED_WAITING, placeholder.content
        await shown(driver, bot, 1)  # the outbox posts the board in the channel
        await driver.wait_until(lambda p=placeholder: "discord.com/channels/" in p.content, "a link to the board")
        assert placeholder.content.startswith("Your move was saved. Its board is in the channel: "), placeholder.content
        assert str(newest_board(driver).id) in placeholder.content and not placeholder.deleted
    assert len(driver.fake.calls_to(followup, status=500)) >= 10  # five tries of each board
    driver.fake.clear_failures()
    assert len(await bot.db.actions(1)) == 2
    await driver.wait_until(lambda: not bot.flow.answers.owed, "the answers' entries dropped")
    assert not await bot.flow.answers.store.all()


async def test_a_dm_failing_with_500_says_the_move_was_saved(
    driver: Driver, settings: Settings, fast_retries: None
) -> None:
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob], "flippers")
    game, rng = get("flippers"), random.Random(2)
    while True:
        row = await bot.db.open_game_in(driver.channel.id)
        assert row is not None and row.state is not None
        state = game.load(row.state)
        waiting = game.to_act(state)
        discards = [a for a in game.legal_actions(state, 0) if a["type"] == "discard"] if 0 in waiting else []
        if discards:
            break
        action = rng.choice(game.legal_actions(state, waiting[0]))
        await run(driver, driver.slash([alice, bob][waiting[0]], flippers_command(action)))
    cards = discards[0]["cards"]
    dm = driver.dm_channel(alice)
    driver.fake.fail(f"POST /channels/{dm.id}/messages", status=500, times=None)
    answer = await run(driver, driver.slash(alice, f"/flippers discard cards:{','.join(cards)}"))
    texts = [m.content for m in answer.messages]
    assert any("Your move was saved" in t and "private update by DM for Alice" in t for t in texts), texts
    assert not any("nothing was changed" in t for t in texts), texts
    assert (await bot.db.actions(row.id))[-1]["action"] == {"type": "discard", "cards": cards}
    assert board_version(newest_board(driver)) == row.version + 1  # the board itself arrived at once
    driver.fake.clear_failures()


def hold_write_lock(path: str, seconds: float, locked: threading.Event) -> None:
    """Hold the database's write lock from another connection for a while, as a stuck writer would."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        locked.set()
        time.sleep(seconds)
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_database_locked_for_4_s_is_answered_in_time_and_nothing_is_lost(
    driver: Driver, settings: Settings
) -> None:
    bot = await start_floe(driver, settings)
    players = [driver.user("alice"), driver.user("bob")]
    board = await open_game(driver, players[0], players[1:])
    rng = random.Random(5)
    player, command = await fish_move(bot, players, 1, rng)
    select = next(c for c in iter_components(board.components) if c.get("options"))
    locked = threading.Event()
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, sqlite_path(bot.db.path), 4.0, locked))
    await asyncio.to_thread(locked.wait, 5)

    typed = driver.slash(player, command)
    pressed = driver.press(player, board, custom_id=select["custom_id"], values=[select["options"][0]["value"]])
    await refused(driver, typed, "database is busy", "nothing was changed")
    await pressed.settle(quiet=QUIET)
    told = [m.content for m in pressed.followups if m.ephemeral]
    assert told and "database is busy" in told[-1], pressed.interaction.describe()
    for during in (typed, pressed):
        assert during.accepted and not during.rejections, during.interaction.describe()
    assert await bot.db.actions(1) == []
    await holder

    await run(driver, driver.slash(player, command))
    assert len(await bot.db.actions(1)) == 1
    await shown(driver, bot, 1)


async def test_two_slash_moves_sent_at_once_by_one_player_never_both_apply(driver: Driver, settings: Settings) -> None:
    no_rates = LimitSettings(per_user=None, per_channel=None)  # alice opens several games in seconds
    bot = await start_floe(driver, replace(settings, limits=no_rates))
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, [bob], "flippers")
    game = get("flippers")
    rng = random.Random(1)
    games = 1
    while True:
        row = await bot.db.open_game_in(driver.channel.id)
        if row is None:  # that game ended without a turn whose order matters (those resolve by themselves)
            assert games < 6, "no turn left two cards to activate in any order"
            games += 1
            await open_game(driver, alice, [bob], "flippers")
            continue
        assert row.state is not None
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        due = available(state, seat) if state.phase == PLAY and state.played is not None else []
        if len(due) >= 2:
            break
        action = rng.choice(game.legal_actions(state, seat))
        await run(driver, driver.slash([alice, bob][seat], flippers_command(action)))
    player = [alice, bob][seat]
    before = len(await bot.db.actions(row.id))
    first = driver.slash(player, f"/flippers activate card:{due[0]}")
    second = driver.slash(player, f"/flippers activate card:{due[1]}")
    await asyncio.gather(first.settle(), second.settle())
    assert len(await bot.db.actions(row.id)) == before + 1
    losers = [r for r in (first, second) if any("changed after you sent" in m.content for m in r.messages)]
    assert len(losers) == 1 and all(m.ephemeral for m in losers[0].messages), losers
    await shown(driver, bot, row.id)


def flippers_command(action: dict[str, Any]) -> str:
    """Return the slash command that makes a Flippers action."""
    if action["type"] == "leader":
        return f"/flippers leader cell:{action['cell']}"
    if action["type"] == "discard":
        return f"/flippers discard cards:{','.join(action['cards'])}"
    if action["type"] == "play":
        return f"/flippers play card:{action['card']} cell:{action['cell']} facing:{action['facing']}"
    return f"/flippers activate card:{action['card']}"


# -- the board outbox, server isolation of presses, locks ------------------------------------------------------


async def save_unposted_move(bot: IceFloeBot, players: list[FakeUser], game_id: int, rng: random.Random) -> int:
    """Save one legal move the way a move is saved, without posting its board (as if the bot died right after)."""
    row = await bot.db.game(game_id)
    assert row is not None and row.state is not None
    game = get(row.kind)
    state = game.load(row.state)
    seat = game.to_act(state)[0]
    done = await bot.flow.commit(game_id, rng.choice(game.legal_actions(state, seat)), user_id=players[seat].id)
    return done.board.version


async def test_a_press_on_an_old_board_posts_the_unposted_newest_one(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    board = await open_game(driver, players[0], players[1:])
    version = await save_unposted_move(bot, players, 1, random.Random(6))
    assert board_version(newest_board(driver)) == version - 1

    select = next(c for c in iter_components(board.components) if c.get("options"))
    pressed = driver.press(players[1], board, custom_id=select["custom_id"], values=[select["options"][0]["value"]])
    told = await refused(driver, pressed, "had not been posted yet")
    assert "out of date" not in told
    assert board_version(newest_board(driver)) == version
    retired = [c for c in iter_components(driver.fake.messages[board.id].components) if c.get("custom_id")]
    assert retired and all(c.get("disabled") for c in retired), retired


async def test_after_a_restart_every_unposted_board_is_posted(
    driver: Driver, settings: Settings, fake_discord: FakeDiscord
) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    rng = random.Random(7)
    await open_game(driver, players[0], players[1:])
    for _ in range(3):
        await save_unposted_move(bot, players, 1, rng)
    await driver.stop_bot(bot)
    bot = await start_floe(driver, settings, outbox_interval=3600)
    await asyncio.wait_for(bot.flow.outbox.caught_up(), 10)
    await shown(driver, bot, 1)
    board = newest_board(driver)
    assert board.content.count("placed a penguin") == 3, board.content


async def test_a_board_posted_but_not_recorded_is_not_posted_again(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    board = await open_game(driver, players[0], players[1:])
    # The bot died after the board went out and before it recorded so: the row still says nothing is posted.
    await bot.db.backend.execute("UPDATE games SET posted_version = 0, board_message_id = NULL WHERE id = 1", ())
    before = len(driver.messages())
    await bot.flow.outbox.sweep()
    assert len(driver.messages()) == before, "the board was posted a second time"
    row = await bot.db.game(1)
    assert row is not None and row.posted_version == row.version and row.board_message_id == board.id


async def test_the_outbox_backs_off_a_channel_that_refuses_and_skips_ended_games(
    driver: Driver, settings: Settings
) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    rng = random.Random(8)
    await open_game(driver, players[0], players[1:])
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    await open_game(driver, players[0], players[1:], channel=general)
    await save_unposted_move(bot, players, 1, rng)
    await save_unposted_move(bot, players, 2, rng)
    assert await bot.db.set_status(2, "cancelled")
    driver.fake.deny_send(driver.channel)
    sends = "POST /channels/{channel_id}/messages"
    for _ in range(3):
        assert await bot.flow.outbox.sweep() == 0
    assert len(driver.fake.calls_to(sends, status=403)) == 1  # one try, then the channel is left alone
    assert not [c for c in driver.fake.calls_to(sends) if str(general.id) in c.path]


async def test_a_forged_press_from_another_server_or_channel_changes_nothing(
    driver: Driver, settings: Settings
) -> None:
    bot = await start_floe(driver, settings)
    alice = driver.user("alice")
    opened = await run(driver, driver.slash(alice, "/game new game:fish"))
    assert opened.message.embeds
    other = driver.fake.add_guild("Elsewhere")
    elsewhere = driver.fake.add_text_channel(other, "games")
    mallory = driver.user("mallory", guild=other)
    eve = driver.user("eve")
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    for user, channel in ((mallory, elsewhere), (eve, general)):
        message = forged(driver, channel, "floe:1:0:join")
        await refused(driver, driver.press(user, message, label="Forged"), "another channel")
    row = await bot.db.game(1)
    assert row is not None and [s.user_id for s in row.seats] == [alice.id]


async def test_per_game_locks_are_let_go_once_moves_are_done(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, players[0], players[1:])
    rng = random.Random(9)
    for _ in range(4):
        player, command = await fish_move(bot, players, 1, rng)
        await run(driver, driver.slash(player, command))
    assert len(await bot.db.actions(1)) == 4
    assert len(bot.flow.locks) == 0 and len(bot.flow.publisher.locks) == 0


async def test_a_move_whose_interaction_expired_is_still_shown(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, players[0], players[1:])
    player, command = await fish_move(bot, players, 1, random.Random(10))
    late = driver.slash(player, command, expired=True)
    await late.acked()
    assert late.rejections and not late.accepted  # 10062: Discord no longer takes an answer
    await shown(driver, bot, 1)
    assert len(await bot.db.actions(1)) == 1


async def test_the_next_command_in_a_game_posts_its_unposted_newest_board(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings, outbox_interval=3600)  # no sweep: only the next command can post it
    players = [driver.user("alice"), driver.user("bob")]
    await open_game(driver, players[0], players[1:])
    version = await save_unposted_move(bot, players, 1, random.Random(9))
    await driver.idle(quiet=0.2)
    assert board_version(newest_board(driver)) == version - 1

    await driver.slash(players[1], "/game hand").settle(quiet=0.05)  # any command that reads the game
    await shown(driver, bot, 1)
    assert board_version(newest_board(driver)) == version
