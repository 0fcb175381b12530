"""End-to-end checks that a takeback request is decided once: answers pressed together, 3+ players, all games."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import IceFloeBot
from config import Settings
from engine.registry import get
from engine.takeback import effective_log
from storage import takebacks as store
from storage.server_rules import COMPUTER_TAKEBACKS, ServerRules, save_server_rules
from tests.clock import Clock
from tests.e2e.helpers_games import QUIET, open_lobby, seed_games, start_floe
from tests.e2e.test_ratings import NAMES, act, fish_command, settle, to_act
from tests.harness import Driver, FakeMessage, FakeUser, InteractionResult
from ui import takeback_offers
from ui.errors import UserError
from ui.takeback_plans import plan

KINDS = ("fish", "tank", "flippers")
TABLES = [(kind, n) for kind in KINDS for n in range(get(kind).min_players, get(kind).max_players + 1)]
MOVED_ON = "the game has moved on"


async def until_takeback(
    driver: Driver, bot: IceFloeBot, kind: str, game_id: int, people: list[FakeUser]
) -> tuple[FakeUser, dict[str, object], dict[str, object]]:
    """Play first legal actions until the last mover may take their move back; return them and the states."""
    for _ in range(40):
        before = await bot.db.game(game_id)
        player = await to_act(bot, game_id, people)
        assert before is not None and player is not None
        await act(driver, bot, kind, player)
        after = await bot.db.game(game_id)
        assert after is not None
        try:
            plan(get(kind), after, await bot.db.actions(game_id), people.index(player))
        except UserError:
            continue
        assert before.state is not None and after.state is not None
        return player, before.state, after.state
    raise AssertionError("no move could be taken back")


async def casual(driver: Driver, bot: IceFloeBot, kind: str, people: list[FakeUser]) -> int:
    """Open and start a casual game of `kind` for these people; return its number."""
    row = await open_lobby(driver, bot, people, f"/game new game:{kind} rated:false")
    await driver.slash(people[0], "/game start").settle(quiet=QUIET)
    await settle(driver, bot)
    return row.id


def private(answer: InteractionResult) -> list[str]:
    """Return what an answer told its presser alone."""
    return [m.content for m in answer.messages if m.ephemeral]


async def ask(driver: Driver, mover: FakeUser) -> FakeMessage:
    """Ask for a takeback with /game takeback and return the public request."""
    asked = await driver.slash(mover, "/game takeback").settle(quiet=QUIET)
    assert not asked.ephemeral and "asks to take back" in asked.content, asked.content
    return asked.message


@pytest.mark.parametrize(("kind", "players"), TABLES)
async def test_accept_and_decline_pressed_together_decide_the_request_once(
    kind: str, players: int, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 50 + players)
    bot = await start_floe(driver, floe_settings)
    people = [driver.user(n) for n in NAMES[:players]]
    game_id = await casual(driver, bot, kind, people)
    mover, before, after = await until_takeback(driver, bot, kind, game_id, people)
    request = await ask(driver, mover)
    assert ".;" not in request.content and "。;" not in request.content, request.content
    others = [p for p in people if p is not mover]
    accepter, decliner = others[0], others[-1]
    for person in others[1:]:  # everyone else, the decliner too, has accepted already
        half = await driver.press(person, request, label="Accept").settle(quiet=QUIET)
        assert private(half) and "Still waiting for" in private(half)[0], half.content
    presses = [("Accept", accepter), ("Decline", decliner)]
    if players % 2:
        presses.reverse()
    pending = [driver.press(person, request, label=label) for label, person in presses]
    answers = [await p.settle(quiet=QUIET) for p in pending]
    await settle(driver, bot)

    stored = (await store.of_game(bot.db, game_id))[-1]
    row = await bot.db.game(game_id)
    log = await bot.db.actions(game_id)
    assert row is not None
    assert stored.status in {store.ACCEPTED, store.DECLINED}, stored.status
    taken_back = stored.status == store.ACCEPTED
    assert row.state == (before if taken_back else after)
    assert (log[-1]["action"]["type"] == "takeback") is taken_back
    expected = "Everyone accepted" if taken_back else "declined the takeback: the move stands."
    assert expected in request.content, request.content
    assert not any(MOVED_ON in m.content for m in driver.messages()), [m.content for m in driver.messages()]
    told = [private(a) for a in answers]
    assert sorted(map(len, told)) == [0, 1] and "already ended" in max(told)[0], told


@pytest.mark.parametrize("kind", KINDS)
async def test_every_accept_of_three_players_is_answered_as_accepted_and_a_second_press_as_done(
    kind: str, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 61)
    bot = await start_floe(driver, floe_settings)
    people = [driver.user(n) for n in NAMES[:3]]
    game_id = await casual(driver, bot, kind, people)
    mover, before, _after = await until_takeback(driver, bot, kind, game_id, people)
    request = await ask(driver, mover)
    first, second = (p for p in people if p is not mover)
    agreed = f"{first.name.capitalize()} and {second.name.capitalize()}"
    half = await driver.press(first, request, label="Accept").settle(quiet=QUIET)
    assert private(half) and f"Still waiting for {second.name.capitalize()}" in half.content, half.content
    twice = [driver.press(second, request, label="Accept"), driver.press(second, request, label="Accept")]
    answers = [await p.settle(quiet=QUIET) for p in twice]
    await settle(driver, bot)

    told = [private(a) for a in answers]
    assert all(a.accepted for a in answers) and sorted(map(len, told)) == [0, 1], told
    assert "already ended (the move was taken back)" in max(told)[0], told
    assert "Everyone accepted" in request.content and MOVED_ON not in request.content, request.content
    assert all(c.get("disabled") for c in request.interactive_components())
    row = await bot.db.game(game_id)
    assert row is not None and row.state == before
    assert (await store.of_game(bot.db, game_id))[-1].status == store.ACCEPTED
    assert not any(MOVED_ON in m.content for m in driver.messages())
    history = await driver.slash(first, "/game history").settle(quiet=QUIET)
    (line,) = [line for line in history.content.splitlines() if " took back: " in line]
    assert line.startswith("`Takeback` ") and ".;" not in line and line.endswith(f"Agreed by {agreed}."), line


@pytest.mark.parametrize("level", ["easy", "hard"])
async def test_a_computer_replies_the_same_after_each_takeback_and_takebacks_against_it_are_limited(
    level: str, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 70)
    bot = await start_floe(driver, floe_settings)
    alice = driver.user("alice")
    lobby = await driver.slash(alice, "/game new game:fish rated:false").settle(quiet=QUIET)
    assert not lobby.ephemeral
    added = await driver.slash(alice, f"/game addbot level:{level}").settle(quiet=QUIET)
    assert f"({level}) joined" in added.content, added.content
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    await settle(driver, bot)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None
    command = await fish_command(driver, alice)
    replies = []
    thought: list[int] = []
    think = bot.flow.bots.think

    async def counted(*args: Any) -> dict[str, Any]:
        thought.append(1)
        return await think(*args)

    monkeypatch.setattr(bot.flow.bots, "think", counted)
    for attempt in range(COMPUTER_TAKEBACKS + 1):
        moved = await driver.slash(alice, command).settle(quiet=QUIET)
        assert moved.accepted, moved.content
        await settle(driver, bot)
        reply = effective_log(await bot.db.actions(row.id))[-1]
        assert reply["seat"] == 1
        replies.append(reply["action"])
        taken = await driver.slash(alice, "/game takeback").settle(quiet=QUIET)
        await settle(driver, bot)
        if attempt < COMPUTER_TAKEBACKS:
            assert "your move was taken back" in taken.content, taken.content
    assert all(r == replies[0] for r in replies), replies
    assert len(thought) == 1  # remembered from the first time: never thought again, whatever its clock
    remembered = await bot.db.backend.fetch("SELECT COUNT(*) FROM bot_replies WHERE game_id = ?", (row.id,))
    assert remembered[0][0] == 1
    assert taken.ephemeral and taken.content == (
        "You have made the 3 takebacks this server allows in a game when only computer players are asked."
    )
    await save_server_rules(bot.db, driver.guild.id, ServerRules(computer_takebacks=COMPUTER_TAKEBACKS + 1))
    again = await driver.slash(alice, "/game takeback").settle(quiet=QUIET)
    assert "your move was taken back" in again.content, again.content


async def tap(driver: Driver, player: FakeUser) -> InteractionResult:
    """Place a penguin by tapping the board's first placement choice; return the answered tap."""
    board = driver.last_message()
    menu = next(c for c in board.interactive_components() if c.get("options"))
    chosen = driver.select(player, board, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
    return await chosen.settle(quiet=QUIET)


def offer_in(answer: InteractionResult) -> FakeMessage | None:
    """Return the offer to take the move back that followed a move, if any."""
    return next((m for m in answer.followups if "Misclicked?" in m.content), None)


async def test_an_offer_follows_a_tap_for_a_short_while_and_greys_once_it_no_longer_applies(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    seed_games(monkeypatch, 80)
    bot = await start_floe(driver, floe_settings, clock=clock)
    alice, bob = driver.user("alice"), driver.user("bob")
    await casual(driver, bot, "fish", [alice, bob])
    typed = await driver.slash(alice, await fish_command(driver, alice)).settle(quiet=QUIET)
    assert typed.accepted and offer_in(typed) is None  # a typed command is no misclick

    first = offer_in(await tap(driver, bob))
    assert first is not None and first.ephemeral
    assert [(c.get("label"), bool(c.get("disabled"))) for c in first.interactive_components()] == [
        ("Take back my move", False)
    ]
    monkeypatch.setattr(takeback_offers, "OFFER_SECONDS", 0.05)
    second = offer_in(await tap(driver, alice))  # the next move: bob's offer no longer applies
    await settle(driver, bot)
    assert all(c.get("disabled") for c in first.interactive_components())
    assert first.content == "That move can no longer be taken back."
    late = await driver.press(bob, first, label="Take back my move", force=True).settle(quiet=QUIET)
    assert private(late) == ["Someone has moved since, so that move can no longer be taken back."]

    assert second is not None
    await driver.wait_until(lambda: all(c.get("disabled") for c in second.interactive_components()), "run out")
    assert re.fullmatch(r"To take that move back now, ask with </game takeback:\d+>\.", second.content), second.content
    clock.advance(2 / 60)
    expired = await driver.press(alice, second, label="Take back my move", force=True).settle(quiet=QUIET)
    [ran_out] = private(expired)
    assert re.fullmatch(r"This offer has run out: to take your move back, ask with </game takeback:\d+>\.", ran_out)
    asked = await driver.slash(alice, "/game takeback").settle(quiet=QUIET)
    assert "asks to take back" in asked.content, asked.content
