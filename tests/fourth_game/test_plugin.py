"""Prove a fourth game needs only its own files: Nim, found through ICE_FLOE_GAMES, played through the fake Discord."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import IceFloeBot, extension_names
from engine.registry import GAMES_ENV, forget, packages
from storage.database import FINISHED
from tests.e2e.helpers_games import (
    QUIET,
    LeakAudit,
    check_picture,
    floe_settings_for,
    message_blobs,
    pinged,
    seed_games,
    start_floe,
)
from tests.fourth_game import GAME
from tests.fourth_game.rules import NimState
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
MENTIONS = re.compile(r"fourth_game|\bnim\b", re.IGNORECASE)
SOURCE_SUFFIXES = {".py", ".toml", ".txt", ".sh", ".cfg", ".ini", ".json", ".yml", ".yaml", ".example", ""}
SKIPPED_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis", "data", "replays"}
LOGGED = re.compile(r"^`\s*\d+` ", re.MULTILINE)
TAKE = re.compile(r"^(.+) took (\d+) stones? from pile ([ABC]) with a ([123]) card\.$", re.MULTILINE)


@pytest.fixture
def fourth_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Name this package in ICE_FLOE_GAMES for one test, then forget it again."""
    with monkeypatch.context() as patch:
        patch.setenv(GAMES_ENV, "tests.fourth_game")
        forget()
        yield
    forget()


def source_files() -> Iterator[Path]:
    """Yield every source and settings file of the project (not docs, data, the virtualenv or caches)."""
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        yield from (Path(folder, name) for name in files if Path(name).suffix in SOURCE_SUFFIXES)


def test_no_file_outside_its_folder_mentions_the_fourth_game() -> None:
    outside = [p for p in source_files() if HERE not in p.parents]
    assert len(outside) > 50, "the project's sources were not found"
    named = [str(p.relative_to(ROOT)) for p in outside if MENTIONS.search(p.read_text("utf-8", errors="ignore"))]
    assert named == [], f"adding the fourth game changed files outside tests/fourth_game: {named}"


def test_it_is_found_only_through_ice_floe_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GAMES_ENV, raising=False)
    forget()
    try:
        assert "nim" not in packages() and "tests.fourth_game.cog" not in extension_names()
        assert {p.module for p in packages().values()} == {"engine.fish", "engine.flippers", "engine.tank"}
        monkeypatch.setenv(GAMES_ENV, "tests.fourth_game")
        forget()
        found = packages()["nim"]
        assert (found.game, found.module, found.cog) == (GAME, "tests.fourth_game", "tests.fourth_game.cog")
        assert list(packages())[:3] == ["fish", "flippers", "tank"]  # the real games first, found the same way
        assert "tests.fourth_game.cog" in extension_names()
    finally:
        monkeypatch.delenv(GAMES_ENV, raising=False)
        forget()


async def settle(driver: Driver, bot: IceFloeBot) -> None:
    """Wait until no handler runs and no computer player thinks or moves."""
    await driver.idle(quiet=QUIET, within=20)
    await asyncio.wait_for(bot.flow.bots.idle(), timeout=20)
    await driver.idle(quiet=QUIET, within=20)


def boards(driver: Driver) -> list[FakeMessage]:
    """Return the channel's messages carrying a Nim board."""
    return [m for m in driver.messages() if m.attachments and m.attachments[0].filename.startswith("nim-")]


async def state_of(bot: IceFloeBot, game_id: int) -> NimState:
    """Return the state as the bot saved it."""
    row = await bot.db.game(game_id)
    assert row is not None and row.state is not None
    return GAME.load(row.state)


def check_hand_dm(driver: Driver, user: FakeUser, hand: list[int]) -> None:
    """Check the user's newest DM shows exactly their saved cards, in words and in a picture."""
    dm = driver.dm_messages(user)[-1]
    cards = " and ".join(str(c) for c in hand)
    assert f"Your cards: {cards} (only you can see them)." in dm.content, dm.content
    check_picture(dm, "nim-cards")


async def test_nim_plays_end_to_end_with_a_computer_player_a_restart_history_and_stats(
    fourth_game: None, driver: Driver, fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 4)
    settings = floe_settings_for(tmp_path, fake_discord)
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    audit = LeakAudit(driver)
    no_hands = lambda text: ["Your cards"] if "Your cards" in text or "nim-cards" in text else []  # noqa: E731

    rules = await driver.slash(alice, "/game rules game:nim").settle(quiet=QUIET)
    assert rules.ephemeral and "takes the last stone wins" in rules.text, rules.text
    lobby = await driver.slash(alice, "/game new game:nim").settle(quiet=QUIET)
    assert "Nim: lobby" in lobby.text and "2-4 players" in lobby.text, lobby.text
    await driver.slash(bob, "/game join").settle(quiet=QUIET)
    added = await driver.slash(alice, "/game addbot level:easy").settle(quiet=QUIET)
    assert "Bot 1 (easy)" in added.text or "Bot 1 (easy)" in driver.last_message().text, added.text
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    await settle(driver, bot)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and [s.is_bot for s in row.seats] == [False, False, True]
    state = await state_of(bot, row.id)
    check_hand_dm(driver, alice, state.hands[0])
    check_hand_dm(driver, bob, state.hands[1])
    assert "Nim has no hidden" not in driver.dm_messages(alice)[-1].content

    by_slash, by_menu, restarted = 0, 0, False
    while (state := await state_of(bot, row.id)).phase != "over":
        board = boards(driver)[-1]
        alt = check_picture(board, "nim-move-")
        assert f"pile A {state.piles[0]}, pile B {state.piles[1]}, pile C {state.piles[2]}" in alt, alt
        seat = state.current
        player = (alice, bob)[seat]
        assert pinged(board, [alice, bob]) == [player], board.content
        pile = "ABC"[max(range(3), key=lambda p: state.piles[p])]
        count = min(state.piles["ABC".index(pile)], max(state.hands[seat]))
        if (by_slash + by_menu) % 2 == 0:
            answer = await driver.slash(player, f"/nim take pile:{pile} count:{count}").settle(quiet=QUIET)
            by_slash += 1
        else:
            options = [o["value"] for c in board.interactive_components() for o in c.get("options", [])]
            assert f"{pile}{count}" in options and len(options) == len(GAME.legal_actions(state, seat)), options
            answer = await driver.select(player, board, [f"{pile}{count}"]).settle(quiet=QUIET)
            by_menu += 1
        assert answer.accepted, answer
        await settle(driver, bot)
        after = await state_of(bot, row.id)
        assert after.taken[seat] == state.taken[seat] + count
        if after.phase != "over":
            check_hand_dm(driver, player, after.hands[seat])
        audit.scan(no_hands)
        if not restarted and by_slash + by_menu == 2:
            await driver.stop_bot(bot)
            bot = await start_floe(driver, settings)
            restarted = True
            stale = await driver.slash(alice, "/nim take pile:D count:1").settle(quiet=QUIET)
            assert stale.ephemeral and "There is no pile “D”" in stale.text, stale.text

    assert restarted and by_slash >= 2 and by_menu >= 1
    final = boards(driver)[-1]
    assert "**Final standings**" in final.content and final.attachments[0].filename == "nim-final.png", final.content
    winner = ("Alice", "Bob", "Bot 1 (easy)")[state.winner or 0]
    assert re.search(rf"^1\. 🏆 {re.escape(winner)}: \d+ stones?$", final.content, re.MULTILINE), final.content
    done = await bot.db.game(row.id)
    assert done is not None and done.status == FINISHED

    history = await driver.slash(bob, f"/game history game_number:{row.id}").settle(quiet=QUIET)
    takes = TAKE.findall(LOGGED.sub("", history.text))
    assert history.ephemeral and len(takes) == state.moves, history.text
    assert sum(int(n) for name, n, _, _ in takes if name == "Bob") == state.taken[1]
    assert {name for name, *_ in takes} == {"Alice", "Bob", "Bot 1 (easy)"}
    stats = await driver.slash(alice, "/game stats").settle(quiet=QUIET)
    won = int(state.winner == 0)
    assert f"Nim: 1 games, {won} wins ({100 * won}%), average score {state.taken[0]:.1f}" in stats.text, stats.text
    replayed = await driver.slash(alice, f"/game replay game_number:{row.id}").settle(20, quiet=QUIET)
    (gif,) = replayed.files
    assert gif.filename == f"replay-{row.id}.gif" and f"game #{row.id}: {state.moves} moves" in gif.description
    with gif.image() as image:
        assert image.format == "GIF" and image.n_frames == state.moves + 1
    assert not any("Your cards" in blob for m in driver.messages() for blob in message_blobs(m))
