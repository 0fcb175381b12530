"""End-to-end limits: bystanders and bursts of public-posting commands make no spam, pings or threads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config import Settings
from i18n.catalogs import translations
from storage.database import FINISHED
from tests.e2e.helpers_games import QUIET, floe_settings_for, seed_games, start_floe
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser
from ui import hints
from ui.limits import LimitSettings
from ui.loading import NO_GAME

TOO_SOON = re.compile(r"You can do this again in \d+ s\.")
PER_USER, PER_CHANNEL = 2, 4


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from seed 5, so runs repeat."""
    seed_games(monkeypatch, 5)


@pytest.fixture
def settings(tmp_path: Path, fake_discord: FakeDiscord) -> Settings:
    """Use the default limits (2 per user, 4 per channel a minute; 3 lobbies per host), stated here."""
    settings = floe_settings_for(tmp_path, fake_discord)
    assert settings.limits.per_user is not None and settings.limits.per_user.uses == PER_USER
    assert settings.limits.per_channel is not None and settings.limits.per_channel.uses == PER_CHANNEL
    return settings


def public(driver: Driver) -> list[FakeMessage]:
    """Return every message anyone can see in the server's channels and threads (not DMs, not ephemeral)."""
    dms = {driver.dm_channel(u).id for u in driver.fake.users.values() if not u.bot}
    return [
        m
        for m in driver.fake.messages.values()
        if not m.ephemeral and not m.deleted and m.channel_id not in dms and m.author.id == driver.fake.bot_user.id
    ]


def pings(driver: Driver) -> int:
    """Count the users the bot's new messages notify (from each post's content and allowed_mentions)."""
    total = 0
    for call in driver.fake.calls:
        body = call.json if call.method == "POST" and isinstance(call.json, dict) else {}
        if "type" in body and isinstance(body.get("data"), dict):
            body = body["data"]  # an interaction callback carries its message in "data"
        mentioned = set(re.findall(r"<@!?(\d+)>", str(body.get("content") or "")))
        allowed = body.get("allowed_mentions")
        if allowed is None or "users" in allowed.get("parse", []):
            total += len(mentioned)
        else:
            total += len(mentioned & {str(u) for u in allowed.get("users") or []})
    return total


async def open_game(
    driver: Driver, host: FakeUser, guest: FakeUser, command: str = "/game new game:fish"
) -> FakeMessage:
    """Open a fish game for two and return its first board."""
    await driver.slash(host, command).settle(quiet=QUIET)
    await driver.slash(guest, "/game join").settle(quiet=QUIET)
    started = await driver.slash(host, "/game start").settle(quiet=QUIET)
    assert started.message.attachments, started.content
    return started.message


async def test_a_bystanders_status_is_private_and_pings_nobody(driver: Driver, settings: Settings) -> None:
    await start_floe(driver, settings)
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    await open_game(driver, alice, bob)
    shown, pinged = len(public(driver)), pings(driver)
    answers = []
    for _ in range(5):
        answers.append(await driver.slash(carol, "/game status").settle(quiet=QUIET))
    assert len(public(driver)) == shown, "a bystander's /game status posted in the channel"
    assert pings(driver) == pinged, "a bystander's /game status pinged someone"
    assert all(a.messages and all(m.ephemeral for m in a.messages) for a in answers)
    first = answers[0].message
    assert first.attachments and first.attachments[0].description, "the board picture, with alt text"
    assert not first.interactive_components(), "no menus on a bystander's copy"
    assert TOO_SOON.fullmatch(answers[-1].content), answers[-1].content


async def test_a_players_status_reposts_without_pinging_and_then_waits(driver: Driver, settings: Settings) -> None:
    await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    board = await open_game(driver, alice, bob)
    shown, pinged = len(public(driver)), pings(driver)
    answers = [await driver.slash(bob, "/game status").settle(quiet=QUIET) for _ in range(4)]
    reposted = [a for a in answers if not a.ephemeral]
    assert len(reposted) == PER_USER and all(a.message.attachments for a in reposted)
    assert "it's your turn" in reposted[0].content, "the repost still says whose turn it is"
    assert pings(driver) == pinged, "a repost pinged the player to move again"
    assert len(public(driver)) == shown + PER_USER
    refused = answers[-1]
    assert refused.ephemeral and TOO_SOON.match(refused.content), refused.content
    assert "https://discord.com/channels/" in refused.content, "the refusal links to the current board"
    assert board.id != reposted[-1].message.id


async def test_twenty_of_each_in_ten_seconds_post_at_most_the_limits(driver: Driver, settings: Settings) -> None:
    bot = await start_floe(driver, settings)
    alice, bob, carol, dave = (driver.user(n) for n in ("alice", "bob", "carol", "dave"))
    finished = driver.fake.add_text_channel(driver.guild, "finished")
    await driver.slash(alice, "/game new game:fish", channel=finished).settle(quiet=QUIET)
    await driver.slash(bob, "/game join", channel=finished).settle(quiet=QUIET)
    await driver.slash(alice, "/game start", channel=finished).settle(quiet=QUIET)
    await driver.slash(alice, "/game resign", channel=finished).settle(quiet=QUIET)
    row = await bot.db.latest_game_in(finished.id)
    assert row is not None and row.status == FINISHED
    await open_game(driver, alice, bob)

    threads_before = len([c for c in driver.fake.channels.values() if c.is_thread])
    shown, pinged = len(public(driver)), pings(driver)
    commands = [
        (alice, "/game status"),
        (alice, "/game leaderboard game:fish"),
        (alice, f"/game replay game_number:{row.id}"),
        (carol, "/game new game:fish thread:true"),
    ]
    for user, command in commands:  # 20 of each, one after another (well within the limits' minute)
        for _ in range(20):
            await driver.slash(user, command).settle(quiet=QUIET)
    # status: 2 reposts; leaderboard: 2; replay: 1 post, then links to it; new thread:true: 2 lobby notices + 2
    # lobbies in their threads.
    posted = public(driver)[shown:]
    assert len(posted) <= 2 + 2 + 1 + 2 * 2, [m.content[:60] for m in posted]
    assert sum(1 for m in posted if m.attachments and m.attachments[0].filename.endswith(".gif")) == 1
    assert pings(driver) == pinged, "no command of this burst may ping anyone"
    threads = [c for c in driver.fake.channels.values() if c.is_thread]
    assert len(threads) - threads_before == 2, "at most two new threads per user"

    # Several people in one channel: at most 4 public answers of a command a minute there.
    shown = len(public(driver))
    for user in (bob, carol, dave, alice, bob, carol, dave):
        await driver.slash(user, "/game leaderboard game:fish").settle(quiet=QUIET)
    assert len(public(driver)) - shown == PER_CHANNEL - 2  # alice's two count in this channel's four


async def test_lobby_notes_over_the_limit_are_private(driver: Driver, settings: Settings) -> None:
    await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await driver.slash(alice, "/game new game:fish").settle(quiet=QUIET)
    shown = len(public(driver))
    toggles = [await driver.slash(bob, cmd).settle(quiet=QUIET) for cmd in ["/game join", "/game leave"] * 10]
    assert len(public(driver)) - shown == PER_USER, "two public notes, the rest private"
    assert all(t.messages for t in toggles) and all(t.ephemeral for t in toggles[PER_USER:])
    assert toggles[-2].content.endswith("joined.") and toggles[-1].content.endswith("left.")


def loose(settings: Settings, **env: str) -> Settings:
    """Return the settings with the rates off and the given LIMIT_* settings."""
    limits = LimitSettings.from_env({"LIMIT_PER_USER": "off", "LIMIT_PER_CHANNEL": "off", **env})
    return Settings(**{**settings.__dict__, "limits": limits})


async def test_lobbies_per_host_are_capped_by_a_setting(driver: Driver, settings: Settings) -> None:
    await start_floe(driver, loose(settings, LIMIT_LOBBIES_PER_USER="2"))
    alice = driver.user("alice")
    channels = [driver.fake.add_text_channel(driver.guild, f"table-{n}") for n in range(3)]
    opened = [await driver.slash(alice, "/game new game:tank", channel=c).settle(quiet=QUIET) for c in channels]
    assert [o.ephemeral for o in opened] == [False, False, True]
    assert "as many open lobbies in this server as one player may (2)" in opened[-1].content
    await driver.slash(alice, "/game cancel", channel=channels[0]).settle(quiet=QUIET)
    again = await driver.slash(alice, "/game new game:tank", channel=channels[2]).settle(quiet=QUIET)
    assert not again.ephemeral, again.content


async def test_rates_are_settings(driver: Driver, settings: Settings) -> None:
    await start_floe(driver, loose(settings))
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, bob)
    answers = [await driver.slash(bob, "/game status").settle(quiet=QUIET) for _ in range(5)]
    assert not any(a.ephemeral for a in answers), [a.content for a in answers]


async def test_hints_are_limited_like_the_other_costly_commands(
    driver: Driver, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    searches = []
    real_think = hints.think
    monkeypatch.setattr(hints, "think", lambda *args: searches.append(args) or real_think(*args))
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_game(driver, alice, bob, "/game new game:fish rated:false")  # a casual game: no confirmation first
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None
    game, state = bot.flow.live(row)
    player = (alice, bob)[game.to_act(state)[0]]
    answers = [await driver.slash(player, "/game hint").settle(within=30, quiet=QUIET) for _ in range(20)]
    assert all(a.ephemeral for a in answers)
    assert sum("**Hint:**" in a.content for a in answers) == PER_USER, [a.content[:40] for a in answers]
    assert all(TOO_SOON.fullmatch(a.content) for a in answers[PER_USER:]), answers[-1].content
    assert len(searches) == PER_USER, "a refused hint must not start a search"


async def test_a_translation_over_discords_limit_still_answers(
    driver: Driver, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    german = translations("de")._catalog  # type: ignore[attr-defined]
    monkeypatch.setitem(german, NO_GAME, "Hier läuft kein Spiel. " * 120)  # 2,760 characters
    monkeypatch.setitem(german, "**Hint:** {move}: {reason}.", "Warum: {reason}. " + "Das ist lang. " * 160)
    bot = await start_floe(driver, settings)
    anna, bob = driver.user("anna"), driver.user("bob")
    anna.locale = "de"
    empty = driver.fake.add_text_channel(driver.guild, "empty")
    refused = await driver.slash(anna, "/game status", channel=empty).settle(quiet=QUIET)
    assert refused.ephemeral and refused.content.startswith("Hier läuft kein Spiel.")
    assert len(refused.content) <= 2000 and refused.content.endswith("…"), len(refused.content)
    await open_game(driver, anna, bob, "/game new game:fish rated:false")
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None
    game, state = bot.flow.live(row)
    player = (anna, bob)[game.to_act(state)[0]]
    player.locale = "de"
    hint = await driver.slash(player, "/game hint").settle(within=30, quiet=QUIET)
    assert hint.ephemeral and "Warum:" in hint.content and len(hint.content) <= 2000, hint.content[:80]
