"""Boards go out through interactions' webhooks, which Discord does not count against the bot's global limit.

A move's board is its interaction's follow-up, a secret move's too (after its private note); a turn's board
edited in place, a replaced board greyed out and a stale ping deleted go through the webhook of the interaction
that sent them. What still reaches the channel by a counted request is what no interaction of the game's
channel can carry (a choice made in a DM, a computer player's move, the outbox).
"""

from __future__ import annotations

import random

import pytest

from config import Settings
from engine.flippers.state import LEADERS, PLAY
from tests.e2e.helpers_games import NAMES, QUIET, TURN_PING, seed_games, start_floe
from tests.e2e.test_flippers import FlippersTable
from tests.e2e.test_tank import started_table
from tests.harness import Driver, FakeDiscord, FakeUser, InteractionResult


def channel_requests(fake: FakeDiscord, channel_id: int, since: int) -> list[str]:
    """Return the counted requests sent to a channel's messages since call number `since`."""
    prefix = f"/channels/{channel_id}/"
    calls = fake.counted_calls(since)
    return [f"{c.method} {c.path}" for c in calls if c.path.removeprefix("/api/v10").startswith(prefix)]


@pytest.mark.parametrize("players", [2, 3])
async def test_a_flippers_game_played_by_commands_costs_its_channel_no_counted_request(
    players: int, driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Leaders, secret discards, plays and activations: every board, edit and ping is an interaction's."""
    seed_games(monkeypatch, 410 + players)
    bot = await start_floe(driver, floe_settings)
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:players]], random.Random(players))
    since = len(fake_discord.calls)
    await table.open()
    await table.play_to_end()
    await table.check_final_standings()
    await driver.idle()
    assert channel_requests(fake_discord, driver.channel.id, since) == []
    assert not any(m.ephemeral for m in table.boards), "a board went out privately"


async def test_a_tank_game_played_by_commands_costs_its_channel_no_counted_request(
    driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Splits, takes and the secret Gourami choices by command: their boards and edits are the commands' own."""
    seed_games(monkeypatch, 302)
    bot = await start_floe(driver, floe_settings)
    since = len(fake_discord.calls)
    table = await started_table(driver, bot, 2, seed=2)
    await table.play_to_end()
    await table.check_final_standings()
    await driver.idle()
    assert channel_requests(fake_discord, driver.channel.id, since) == []


async def test_tank_board_menus_edit_their_board_through_the_press(
    driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the board's menus and the DM menus, only a choice made in a DM posts its board by a counted request."""
    seed_games(monkeypatch, 303)
    bot = await start_floe(driver, floe_settings)
    since = len(fake_discord.calls)
    table = await started_table(driver, bot, 3, seed=3, menus=True)
    await table.play_to_end()
    await table.check_final_standings()
    await driver.idle()
    dm_channels = {channel.id for channel in fake_discord.dm_channels.values()}
    dm_presses = [ix for ix in fake_discord.interactions.values() if ix.channel.id in dm_channels and ix.type == 3]
    counted = channel_requests(fake_discord, driver.channel.id, since)
    assert len(counted) <= 2 * len(dm_presses), counted  # a DM choice's board, or its take's board edited



async def discards_in_a_burst(driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings) -> FlippersTable:
    """Place both Leaders, then queue moves deep so each is acknowledged before it is saved (a burst)."""
    bot = await start_floe(driver, floe_settings)
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:2]], random.Random(2))
    await table.open()
    while (await table.state()).phase == LEADERS:
        await table.play_turn()
    bot.flow.moves.handling = 10
    return table


async def discard(driver: Driver, player: FakeUser) -> InteractionResult:
    """Send a player's first offered setup discards by command."""
    offered = await driver.autocomplete(player, "/flippers discard cards:")
    return await driver.slash(player, f"/flippers discard cards:{offered[0]['value']}").settle(quiet=QUIET)


async def test_in_a_burst_a_secret_moves_board_follows_its_private_note_in_public(
    driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Acknowledged before saving, a secret move's "thinking…" is private: its note goes first, then the board."""
    seed_games(monkeypatch, 412)
    table = await discards_in_a_burst(driver, fake_discord, floe_settings)
    since = len(fake_discord.calls)
    for player in table.players:
        noted = await discard(driver, player)
        assert noted.response_type == 5 and noted.ephemeral and noted.content.startswith("You discarded ")
    await driver.idle()
    assert (await table.state()).phase == PLAY
    board = driver.messages()[-1]
    assert not board.ephemeral and TURN_PING.search(board.content), board.content
    assert channel_requests(fake_discord, driver.channel.id, since) == []


async def test_a_secret_move_whose_note_failed_posts_its_board_to_the_channel(
    driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without its note, the private "thinking…" would make the board's follow-up private: the channel gets it."""
    seed_games(monkeypatch, 412)
    table = await discards_in_a_burst(driver, fake_discord, floe_settings)
    first, last = table.players
    await discard(driver, first)
    fake_discord.fail("POST /webhooks/{application_id}/{token}", status=400, times=1)  # the last one's note
    since = len(fake_discord.calls)
    offered = await driver.autocomplete(last, "/flippers discard cards:")
    await driver.slash(last, f"/flippers discard cards:{offered[0]['value']}").acked()  # its answer never comes
    await driver.idle()
    assert (await table.state()).phase == PLAY
    board = driver.messages()[-1]
    assert not board.ephemeral and TURN_PING.search(board.content), board.content
    assert f"POST /api/v10/channels/{driver.channel.id}/messages" in channel_requests(
        fake_discord, driver.channel.id, since
    )
