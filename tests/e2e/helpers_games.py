"""Shared helpers for the 10 Gallon Tank and Flippers acceptance tests: the bot, turn pings and a leak audit."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot import IceFloeBot, create_bot
from config import Settings
from engine.registry import get
from storage.database import GameRow
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser
from tests.harness.models import iter_components

TURN_PING = re.compile(r"((?:<@\d+>(?:, | and )?)+), it's your turn\.")
DM_NOTICE = "I cannot DM you"
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
QUIET = 0.01


def floe_settings_for(tmp_path: Path, fake: FakeDiscord) -> Settings:
    """Return settings for a bot on a fresh database file, syncing commands to the fake guild."""
    return Settings(
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'floe.db'}",
        dev_guild_id=fake.guild.id,
        answers_dir=str(tmp_path),  # kept when a test points the bot at PostgreSQL instead
    )


def seed_games(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the bot deal from `seed` instead of SystemRandom, so every run plays the same game."""
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(seed))


async def start_floe(
    driver: Driver, settings: Settings, *, clock: Callable[[], datetime] | None = None, **options: Any
) -> IceFloeBot:
    """Build Ice Floe with create_bot (quick computer players, thread workers, one reminder check) and start it."""
    defaults: dict[str, Any] = {
        "bot_pause": 0,
        "bot_budget": 0.05,
        "workers": "thread",
        "check_interval": 3600,
        "guild_ready_timeout": 0.05,
    }
    bot = create_bot(settings, **(defaults | options))
    if clock is not None:
        bot.db.clock = clock
    try:
        await driver.start_bot(bot)
    except BaseException:
        await bot.close()  # a bot that died starting keeps its database thread, which blocks pytest's exit
        raise
    return bot


async def open_lobby(driver: Driver, bot: IceFloeBot, players: list[FakeUser], command: str) -> GameRow:
    """Open a lobby with `command` as the first player, seat the others with /game join, return the row."""
    host, *guests = players
    lobby = await driver.slash(host, command).settle(quiet=QUIET)
    assert not lobby.ephemeral and lobby.message.embeds, lobby.text
    for guest in guests:
        joined = await driver.slash(guest, "/game join").settle(quiet=QUIET)
        assert not joined.ephemeral, joined.text
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and [s.user_id for s in row.seats] == [p.id for p in players]
    return row


def pinged(message: FakeMessage, players: Iterable[FakeUser]) -> list[FakeUser]:
    """Return the players a board asks to act ("<@1> and <@2>, it's your turn.")."""
    ping = TURN_PING.search(message.content)
    assert ping, f"no turn ping on the board: {message.content!r}"
    ids = [int(i) for i in re.findall(r"\d+", ping.group(1))]
    by_id = {p.id: p for p in players}
    return [by_id[i] for i in ids]


def check_picture(message: FakeMessage, prefix: str) -> str:
    """Check a message carries exactly one real PNG named `prefix`… with alt text; return the alt text."""
    assert len(message.attachments) == 1, f"expected one picture: {message!r}"
    picture = message.attachments[0]
    assert picture.filename.startswith(prefix) and picture.filename.endswith(".png"), picture.filename
    with picture.image() as image:
        assert image.format == "PNG" and image.width >= 200 and image.height >= 100
        image.verify()
    assert picture.description, f"{picture.filename} has no alt text"
    return picture.description


def _blob(content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]], files: list[Any]) -> str:
    """Return every piece of text a message version shows or carries: content, embeds, components, alt texts."""
    parts = [content]
    for embed in embeds:
        parts += [str(embed.get(key) or "") for key in ("title", "description")]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))
    for component in iter_components(components):
        parts += [str(component.get(key) or "") for key in ("label", "placeholder", "custom_id", "content")]
        for option in component.get("options") or []:
            parts += [str(option.get(key) or "") for key in ("label", "description", "value")]
    parts += [f"{a.filename} {a.description or ''}" for a in files]
    return "\n".join(part for part in parts if part)


def message_blobs(message: FakeMessage) -> list[str]:
    """Return the text blob of every version of a message, the current one last."""
    blobs = [_blob(v["content"], v["embeds"], v["components"], v["attachments"]) for v in message.versions]
    return [*blobs, _blob(message.content, message.embeds, message.components, message.attachments)]


class LeakAudit:
    """Check every new public message version in a channel against what is hidden at that moment."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.seen: dict[int, set[str]] = {}

    def scan(self, leaks: Callable[[str], list[str]]) -> None:
        """Run `leaks` on each message text not seen before; fail with the leaked words and the text."""
        for message in self.driver.messages():
            assert not message.ephemeral
            known = self.seen.setdefault(message.id, set())
            for blob in message_blobs(message):
                if blob in known:
                    continue
                known.add(blob)
                found = leaks(blob)
                assert not found, f"message {message.id} reveals hidden card(s) {found}:\n{blob}"


def word_finder(words: Iterable[str]) -> Callable[[str], list[str]]:
    """Return a function listing which of `words` occur in a text as whole words (case-sensitive)."""
    wanted = sorted(set(words), key=len, reverse=True)
    if not wanted:
        return lambda text: []
    pattern = re.compile(r"(?<![\w+-])(" + "|".join(re.escape(w) for w in wanted) + r")(?![\w+-])")
    return lambda text: sorted(set(pattern.findall(text)))


def dm_failures(fake: FakeDiscord) -> tuple[int, int]:
    """Return (refused, delivered) message sends to DM channels so far."""
    dm_ids = {ch.id for ch in fake.dm_channels.values()}
    sends = [c for c in fake.calls_to("POST /channels/{channel_id}/messages") if int(c.path.split("/")[4]) in dm_ids]
    return sum(c.status == 403 for c in sends), sum(c.status == 200 for c in sends)


class TableBase:
    """Share what every e2e game table reads back: the newest board, whether it is over, the saved state."""

    game_key = ""
    bot: IceFloeBot
    game_id: int
    boards: list[FakeMessage]

    @property
    def board(self) -> FakeMessage:
        """Return the newest board."""
        return self.boards[-1]

    @property
    def over(self) -> bool:
        """Tell whether the newest board shows the final standings."""
        return "**Final standings**" in self.board.content

    async def saved_state(self) -> Any:
        """Return the game state as the bot saved it."""
        row = await self.bot.db.game(self.game_id)
        assert row is not None and row.state is not None
        return get(self.game_key).load(row.state)
