"""End-to-end: answered `/game hand` menus (ephemeral replies) grey out when their game ends, is cancelled or is
abandoned, through the interaction's token, after a restart too; an expired token is left alone."""

from __future__ import annotations

import logging

import pytest

from bot import IceFloeBot
from config import Settings
from engine.flippers.state import SETUP
from engine.registry import get
from storage.database import ABANDONED, CANCELLED, FINISHED
from storage.menus import reply_menus
from tests.clock import Clock
from tests.e2e.helpers_games import seed_games, start_floe
from tests.e2e.test_async_play import open_game
from tests.e2e.test_lifecycle import settled_status
from tests.harness import Driver, FakeMessage, FakeUser
from ui import reply_menus as module

FLIPPERS = get("flippers")
QUIET = 0.01
EDITS = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
MINUTES = 1 / 60


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from the same seed."""
    seed_games(monkeypatch, 5)


def live(message: FakeMessage) -> list[str]:
    """Return the placeholders or labels of the menus and buttons a message still offers."""
    return [
        str(c.get("placeholder") or c.get("label")) for c in message.interactive_components() if not c.get("disabled")
    ]


def greyed(message: FakeMessage) -> bool:
    """Tell whether a message still shows its menus, every one of them disabled."""
    return bool(message.interactive_components()) and live(message) == []


async def in_setup(driver: Driver, floe: IceFloeBot, players: list[FakeUser]) -> int:
    """Start a casual two-player game of Flippers and place both Leaders: each player now has discards to choose.

    Casual, so that its host may still cancel it once both have moved (rated games refuse that after the abort).
    """
    await open_game(driver, players[0], players[1:], "/game new game:flippers rated:false")
    row = await floe.db.open_game_in(driver.channel.id)
    assert row is not None
    for _placed in range(len(players)):
        state = FLIPPERS.load((await floe.db.game(row.id)).state)  # type: ignore[union-attr]
        player = players[state.current]
        cell = (await driver.autocomplete(player, "/flippers leader cell:"))[0]["value"]
        await driver.slash(player, f"/flippers leader cell:{cell}").settle(quiet=QUIET)
    state = FLIPPERS.load((await floe.db.game(row.id)).state)  # type: ignore[union-attr]
    assert state.phase == SETUP
    return row.id


async def hand(driver: Driver, player: FakeUser) -> FakeMessage:
    """Run /game hand and return its private answer, which offers the player's discard menu."""
    shown = await driver.slash(player, "/game hand").settle(quiet=QUIET)
    message = shown.message
    assert shown.ephemeral and message.attachments, shown.content
    assert any(p.startswith("Discard ") for p in live(message)), live(message)
    return message


async def test_the_answered_hand_menus_grey_out_when_the_game_ends(
    driver: Driver, floe_settings: Settings, clock: Clock
) -> None:
    floe = await start_floe(driver, floe_settings, clock=clock)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    alices, bobs = await hand(driver, alice), await hand(driver, bob)
    clock.advance(10 * MINUTES)
    assert len(await reply_menus(floe.db, game_id)) == 2

    resigned = await driver.slash(alice, "/game resign").settle(quiet=QUIET)
    assert not resigned.ephemeral
    await settled_status(driver, floe, game_id, FINISHED)
    assert greyed(alices) and greyed(bobs)
    assert alices.attachments and alices.content == alices.versions[-1]["content"]  # only the menus changed
    assert await reply_menus(floe.db, game_id) == []


async def test_a_cancelled_game_greys_out_the_answered_hand_menus(driver: Driver, floe_settings: Settings) -> None:
    floe = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    bobs = await hand(driver, bob)
    cancelled = await driver.slash(alice, "/game cancel").settle(quiet=QUIET)
    assert not cancelled.ephemeral, cancelled.content
    await settled_status(driver, floe, game_id, CANCELLED)
    assert greyed(bobs)
    assert await reply_menus(floe.db, game_id) == []


async def test_an_abandoned_game_greys_out_the_answered_hand_menus(driver: Driver, floe_settings: Settings) -> None:
    floe = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    alices = await hand(driver, alice)
    driver.fake.remove_bot(driver.guild)  # the bot was removed from the server: its games there are abandoned
    await settled_status(driver, floe, game_id, ABANDONED)
    assert greyed(alices)
    assert await reply_menus(floe.db, game_id) == []


async def test_a_deleted_channel_leaves_nothing_to_grey_out_and_nothing_behind(
    driver: Driver, floe_settings: Settings
) -> None:
    floe = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    await hand(driver, alice)
    driver.fake.remove_channel(driver.channel)
    await settled_status(driver, floe, game_id, ABANDONED)
    assert await reply_menus(floe.db, game_id) == []


async def test_a_newer_hand_answer_greys_out_the_older_one(driver: Driver, floe_settings: Settings) -> None:
    floe = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    first, bobs = await hand(driver, alice), await hand(driver, bob)
    second = await hand(driver, alice)
    assert greyed(first) and live(second) and live(bobs)  # only the same player's older answer
    assert [r.message_id for r in await reply_menus(floe.db, game_id)] == [bobs.id, second.id]


async def test_an_answer_whose_token_expired_is_left_alone_and_forgotten(
    driver: Driver, floe_settings: Settings, clock: Clock
) -> None:
    floe = await start_floe(driver, floe_settings, clock=clock)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    alices = await hand(driver, alice)
    clock.advance(5 * MINUTES)
    bobs = await hand(driver, bob)
    clock.advance(9.6 * MINUTES)  # Alice's token is 14.6 minutes old: an edit now might arrive after it expired
    edits = len(driver.fake.calls_to(EDITS))

    await driver.slash(alice, "/game resign").settle(quiet=QUIET)
    await settled_status(driver, floe, game_id, FINISHED)
    assert live(alices) and greyed(bobs)
    assert len(driver.fake.calls_to(EDITS)) == edits + 1  # Bob's only
    assert await reply_menus(floe.db, game_id) == []


async def test_expired_answers_are_pruned_by_the_periodic_check(
    driver: Driver, floe_settings: Settings, clock: Clock
) -> None:
    floe = await start_floe(driver, floe_settings, clock=clock)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    await hand(driver, alice)
    clock.advance(14 * MINUTES)
    await floe.scheduler.tick()
    assert len(await reply_menus(floe.db, game_id)) == 1  # still usable
    clock.advance(0.6 * MINUTES)
    await floe.scheduler.tick()
    assert await reply_menus(floe.db, game_id) == []


async def test_a_token_discord_refuses_is_quietly_forgotten(
    driver: Driver, floe_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    floe = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    shown = await driver.slash(alice, "/game hand").settle(quiet=QUIET)
    driver.fake.expire_token(shown.interaction)  # Discord's clock, not ours, says the 15 minutes are over
    cancelled = await driver.slash(alice, "/game cancel").settle(quiet=QUIET)
    assert not cancelled.ephemeral, cancelled.content
    await settled_status(driver, floe, game_id, CANCELLED)
    assert live(shown.message)
    assert await reply_menus(floe.db, game_id) == []
    refused = [r for r in caplog.records if r.name == module.__name__]
    assert [r.levelname for r in refused] == ["INFO"] and "401" in refused[0].getMessage()


async def test_a_restart_between_the_answer_and_the_end_still_greys_it_out(
    driver: Driver, floe_settings: Settings, clock: Clock
) -> None:
    floe = await start_floe(driver, floe_settings, clock=clock)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    bobs = await hand(driver, bob)
    await driver.stop_bot(floe)
    clock.advance(5 * MINUTES)

    floe = await start_floe(driver, floe_settings, clock=clock)
    await driver.slash(alice, "/game resign").settle(quiet=QUIET)
    await settled_status(driver, floe, game_id, FINISHED)
    assert greyed(bobs)
    assert await reply_menus(floe.db, game_id) == []


async def test_a_private_menu_opened_from_the_board_greys_out_too(driver: Driver, floe_settings: Settings) -> None:
    floe = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await in_setup(driver, floe, [alice, bob])
    board = next(m for m in reversed(driver.messages()) if "Choose your discards" in live(m))
    asked = await driver.press(bob, board, label="Choose your discards").settle(quiet=QUIET)
    assert asked.ephemeral and any(p.startswith("Discard ") for p in live(asked.message)), asked.content
    await driver.slash(alice, "/game cancel").settle(quiet=QUIET)
    await settled_status(driver, floe, game_id, CANCELLED)
    assert greyed(asked.message)


async def test_a_hand_menu_answered_in_place_greys_out_through_the_newest_token(
    driver: Driver, floe_settings: Settings
) -> None:
    floe = await start_floe(driver, floe_settings)
    players = [driver.user("alice"), driver.user("bob")]
    game_id = await in_setup(driver, floe, players)
    for player in players:
        choice = (await driver.autocomplete(player, "/flippers discard cards:"))[0]["value"]
        await driver.slash(player, f"/flippers discard cards:{choice}").settle(quiet=QUIET)
    state = FLIPPERS.load((await floe.db.game(game_id)).state)  # type: ignore[union-attr]
    player = players[state.current]
    shown = await driver.slash(player, "/game hand").settle(quiet=QUIET)
    assert live(shown.message) == ["Play which card…"], live(shown.message)
    card = state.hands[state.current][0]
    picked = await driver.select(player, shown.message, [card], placeholder="Play which card…").settle(quiet=QUIET)
    assert picked.response_type == 7 and picked.message is shown.message  # the same private message, updated
    (reply,) = await reply_menus(floe.db, game_id)
    assert reply.token == picked.interaction.token
    driver.fake.expire_token(shown.interaction)  # only the press's newer token can still edit it

    await driver.slash(players[0], "/game cancel").settle(quiet=QUIET)
    await settled_status(driver, floe, game_id, CANCELLED)
    assert greyed(shown.message)
