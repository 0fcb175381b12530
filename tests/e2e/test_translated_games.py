"""A whole game of each title in each shipped language, scanned for English left untranslated (#21, item 7).

The server chooses the language with /game settings, every person's Discord client is set to it, and the
game is played through the fake Discord: the lobby, the start, the private hands, status, rules, list, history,
computer players to the end, the final standings, the replay, stats, the leaderboard and a rematch. Every
message the bot wrote (in the channel, in DMs, or privately as a reply), every version of it, its embeds,
component labels and alt texts, is then scanned for common English words. Names (players', the games'
published titles) and command names (`/game hand`) are left out. A failure lists each English line with where
it was seen: the list to close.

By default one language is played per title (and Portuguese a second Fish game); ICE_FLOE_ALL_LANGUAGES=1,
and CI=true (as in CI), play every title in every language.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot import IceFloeBot
from config import Settings
from engine.registry import get, packages
from i18n import LANGUAGES, using
from i18n.languages import DISCORD_LOCALES, ENGLISH
from storage.database import FINISHED
from tests.e2e.helpers_games import open_lobby, seed_games, start_floe
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser
from tests.harness.models import iter_components
from tests.ui.test_commands import localization_gaps

QUIET = 0.01
TITLES = ("fish", "tank", "flippers")
SHIPPED = tuple(code for code in LANGUAGES if code != ENGLISH)
DEFAULT_RUN = {("fish", "de"), ("tank", "es"), ("flippers", "ja"), ("fish", "pt_BR")}
EVERY = os.environ.get("ICE_FLOE_ALL_LANGUAGES") == "1" or os.environ.get("CI") == "true"

STOP_LIST = """
    the and your yours you turn turns player players card cards move moves moved game games with from this that
    these those has have had are is was were be been will would can cannot could should must not isn't don't
    doesn't didn't it's its it they them their there here which what when where who whose why how yes of to
    for on at by or if then than into onto after before again still more each every all any some only now just
    also played plays play placed place places take takes took taken split splits discard discarded gives gave
    points point score scores wins won winner winners round rounds penguin penguins tile tiles board boards
    hand lobby host seat seats joined left waiting waits waited reminder hours hour minutes page pages rules
    rule settings rated casual none nobody nothing open opened closed started start cancelled finished final
    standings team teams facing leader food flip face up down north east south west aquarium group groups
    deck pile goal goals chest treasure tie tied total over ended next first last previous new see use
    private privately public channel server thread message direct please try sorry something went wrong saved
    lost posted post replay history stats leaderboard rating ratings level easy hard bot's computer
"""
STOP_WORDS = frozenset(STOP_LIST.split())
"""Common English words that a translated message should not hold (as whole words, any case)."""

ALSO_THEIRS: dict[str, frozenset[str]] = {
    "de": frozenset(
        {"in", "an", "was", "so", "will", "hand", "start", "status", "team", "teams", "lobby", "total", "server"}
        | {"aquarium", "also"}
        | {"thread"}  # Discord's own German words
    ),
    "es": frozenset({"no", "final", "total", "use"}),
    "pt_BR": frozenset({"no", "final", "total", "status", "thread", "replay", "rating", "move", "use"}),
    "ja": frozenset(),
}
"""Words of the stop-list that are also words of a shipped language (German "Hand", "in", "will")."""

LOCALE = {code: DISCORD_LOCALES[code][-1] for code in SHIPPED}  # es-419 for Spanish: es-ES is checked in sync
CODE_SPAN = re.compile(r"`[^`]*`|/[a-z]+(?: [a-z_]+)?(?: [a-z_]+:\S+)*")  # command names, quoted or not
NOISE = re.compile(r"<[@#][!&]?\d+>|<t:\d+(?::\w)?>|https?://\S+|\b[A-Za-z]{1,2}\d+\b")
LONG = 120
"""Lines longer than this (alt texts, rules paragraphs) are grouped by the English words they hold."""
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")  # whole words of any script: "até" is not "at"


@dataclass(frozen=True)
class Seen:
    """One line of text the bot wrote, and where it was seen first."""

    where: str
    line: str


def combinations() -> Iterator[Any]:
    """Yield every (title, language), the ones outside the default run skipped unless all are asked for."""
    for title in TITLES:
        for language in SHIPPED:
            slow = (title, language) not in DEFAULT_RUN
            marks = [pytest.mark.skip(reason="set ICE_FLOE_ALL_LANGUAGES=1")] if slow and not EVERY else []
            yield pytest.param(title, language, id=f"{title}-{language}", marks=marks)


def texts_of(message: FakeMessage) -> Iterator[tuple[str, str]]:
    """Yield (part, text) for everything a reader sees of a message, in every version of it."""
    now = {"content": message.content, "embeds": message.embeds, "components": message.components}
    versions = [*message.versions, {**now, "attachments": message.attachments}]
    for version in versions:
        yield "content", version.get("content") or ""
        for embed in version.get("embeds") or []:
            for key in ("title", "description"):
                yield f"embed {key}", str(embed.get(key) or "")
            for found in embed.get("fields") or []:
                yield "embed field", f"{found.get('name', '')}\n{found.get('value', '')}"
            yield "embed footer", str((embed.get("footer") or {}).get("text") or "")
            yield "embed author", str((embed.get("author") or {}).get("name") or "")
        for component in iter_components(version.get("components") or []):
            for key in ("label", "placeholder", "content"):
                yield f"component {key}", str(component.get(key) or "")
            for option in component.get("options") or []:
                yield "menu option", f"{option.get('label', '')}\n{option.get('description') or ''}"
        for attachment in version.get("attachments") or []:
            description = getattr(attachment, "description", None)
            if description is None and isinstance(attachment, dict):
                description = attachment.get("description")
            yield "alt text", str(description or "")


def where_seen(fake: FakeDiscord, message: FakeMessage) -> str:
    """Say where a message was: a DM, a private reply to a command or press, or the game's channel."""
    dm_users = {channel.id: user_id for user_id, channel in fake.dm_channels.items()}
    if message.channel_id in dm_users:
        return f"DM {message.id}"
    if message.ephemeral:
        asked = f" to {message.interaction_name}" if message.interaction_name else ""
        return f"private reply{asked} {message.id}"
    return f"channel post {message.id}"


def english_words(line: str, language: str, names: set[str]) -> list[str]:
    """Return the stop-list words in a line, leaving out command names, mentions, links, labels and names."""
    for name in sorted(names, key=len, reverse=True):
        line = line.replace(name, " ")
    line = NOISE.sub(" ", CODE_SPAN.sub(" ", line))
    allowed = ALSO_THEIRS.get(language, frozenset())
    return [w for w in WORD.findall(line) if w.lower() in STOP_WORDS and w.lower() not in allowed]


def shape(line: str, names: set[str]) -> str:
    """Return a line with its names, numbers and labels blanked, so lines made from one sentence count once."""
    for name in sorted(names, key=len, reverse=True):
        line = line.replace(name, "…")
    line = re.sub(r"\d+", "#", NOISE.sub("…", line))
    return re.sub(r"…(?:[,;\s]+…)+", "…", line)  # a list of labels or names counts as one


def untranslated(fake: FakeDiscord, language: str, names: set[str]) -> list[str]:
    """List each sentence of the bot's messages holding English words: where it was seen first, how often, the words."""
    found: dict[str, tuple[Seen, list[str]]] = {}
    seen_times: dict[str, int] = {}
    for message in sorted(fake.messages.values(), key=lambda m: m.id):
        if message.author.id != fake.bot_user.id:
            continue
        for part, text in texts_of(message):
            for line in text.splitlines():
                words = english_words(line, language, names)
                if not words:
                    continue
                # A long text (an alt text) is told once per part and set of English words it holds.
                key = shape(line, names) if len(line) <= LONG else f"{part}: {sorted({w.lower() for w in words})}"
                seen_times[key] = seen_times.get(key, 0) + 1
                found.setdefault(key, (Seen(f"{where_seen(fake, message)} ({part})", line), words))
    return [
        f"{seen.where}: {seen.line!r}"
        + (f" (x{seen_times[key]})" if seen_times[key] > 1 else "")
        + f"  <- {', '.join(dict.fromkeys(words))}"
        for key, (seen, words) in found.items()
    ]


def kept_names(language: str, people: list[FakeUser]) -> set[str]:
    """Return the names a scan leaves out: the players' and the published titles, in English and in `language`."""
    names = {p.name for p in people} | {p.name.title() for p in people}
    for key in packages():
        names.add(get(key).title)
        with using(language):
            names.add(get(key).title)
    return names


async def play_in(driver: Driver, bot: IceFloeBot, title: str, language: str) -> list[FakeUser]:
    """Play a whole game of `title` with the server and every player in `language`; return the people."""
    locale = LOCALE[language]
    owner = driver.user("olga", manage_guild=True)
    alice, bob = driver.user("alice"), driver.user("bob")
    for person in (owner, alice, bob):
        person.locale = locale
    chose = await driver.slash(owner, f"/game settings language:{language}").settle(quiet=QUIET)
    assert LANGUAGES[language] in chose.content, chose.content
    row = await open_lobby(driver, bot, [alice, bob], f"/game new game:{title}")
    assert row.language == language
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    for person, command in (
        (bob, "/game hand"),
        (alice, "/game status"),
        (owner, "/game status"),
        (bob, f"/game rules game:{title}"),
        (alice, "/game list"),
        (bob, "/game mine"),
        (alice, "/game history"),
        (owner, "/game settings"),
        (alice, "/game notify setting:on"),
    ):
        await driver.slash(person, command).settle(quiet=QUIET)
    for person in (alice, bob):
        await driver.slash(person, "/game resign hand_to_bot:easy").settle(quiet=QUIET)
    await asyncio.wait_for(bot.flow.bots.idle(), timeout=120)
    await driver.idle(quiet=QUIET)
    finished = await bot.db.game(row.id)
    assert finished is not None and finished.status == FINISHED
    for person, command in (
        (alice, f"/game history game_number:{row.id}"),
        (bob, "/game replay"),  # a whole game drawn as a GIF: seconds on a busy machine
        (alice, "/game stats"),
        (bob, f"/game leaderboard game:{title}"),
    ):
        await driver.slash(person, command).settle(within=120, quiet=QUIET)
    final, rematch = next(
        (message, component["custom_id"])
        for message in reversed(driver.messages())
        for component in iter_components(message.components)
        if str(component.get("custom_id", "")).endswith(":rematch")
    )
    await driver.press(alice, final, custom_id=rematch).settle(quiet=QUIET)
    await driver.slash(alice, "/game cancel").settle(quiet=QUIET)
    return [owner, alice, bob]


@pytest.mark.parametrize(("title", "language"), list(combinations()))
async def test_a_whole_game_reads_without_english(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch, title: str, language: str
) -> None:
    seed_games(monkeypatch, 5)
    bot = await start_floe(driver, floe_settings)
    people = await play_in(driver, bot, title, language)
    lines = untranslated(driver.fake, language, kept_names(language, people))
    assert not lines, f"{len(lines)} line(s) of {title} in {language} still hold English:\n" + "\n".join(lines)


def test_the_scan_finds_english_and_leaves_names_and_commands_alone() -> None:
    names = {"alice", "Hey, That's My Fish!"}
    assert english_words("It's your turn, <@123>.", "de", names) == ["It's", "your", "turn"]
    assert english_words("alice spielt `/game hand` in Hey, That's My Fish!", "de", names) == []
    assert english_words("Du hast 3 Karten auf der Hand, C4 und h2.", "de", names) == []
    assert english_words("Leave the lobby", "ja", names) == ["the", "lobby"]
    assert english_words("Leave the lobby", "de", names) == ["the"]
    assert english_words("ペンギンを C4 に置きました。", "ja", names) == []
    assert english_words("Partida final: no hay jugadas", "es", names) == []
    assert english_words("Wie jede Karte punktet: /game rules game:tank", "de", names) == []


async def test_the_synced_commands_carry_every_localization(driver: Driver, floe_settings: Settings) -> None:
    await start_floe(driver, floe_settings)
    synced = driver.fake.guild_commands[driver.guild.id]  # what the bulk overwrite delivered
    assert {command["name"] for command in synced} >= {"game", *TITLES}
    gaps = localization_gaps(synced)
    assert not gaps, "\n".join(gaps)
    game = next(command for command in synced if command["name"] == "game")
    assert game["name_localizations"] == {
        "de": "spiel",
        "es-ES": "partida",
        "es-419": "partida",
        "pt-BR": "partida",
        "ja": "ゲーム",
    }
