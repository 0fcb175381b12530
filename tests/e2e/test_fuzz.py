"""Fuzz the bot through the fake Discord with hostile slash options, forged custom_ids and wrong-user presses.

Every case must get a specific private answer (never the generic "something went wrong"), log no ERROR,
post nothing in public and change no saved game.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot import IceFloeBot
from cogs.flippers import discard_refs
from engine.registry import get
from tests.e2e.helpers_games import floe_settings_for, seed_games, start_floe
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.harness.models import iter_components
from ui.errors import UserError

GENERIC = "Something went wrong"
FORGED = "press me (forged)"
TOKENS = (
    "join",
    "leave",
    "start",
    "addbot",
    "rematch",
    "place#0",
    "place#1",
    "from",
    "to:A1",
    "discard",
    "discard?",
    "play?",
    "hand?",
    "card",
    "row:c-flip",
    "cell:c-flip",
    "face:c-flip:N13",
    "activate",
)


@dataclass
class Table:
    """A fish game and a Flippers game in progress, the people around them, and a channel in another server."""

    driver: Driver
    bot: IceFloeBot
    fish: FakeChannel
    flippers: FakeChannel
    elsewhere: FakeChannel
    players: list[FakeUser]
    strangers: list[FakeUser]

    @property
    def everyone(self) -> list[FakeUser]:
        """Return every user who may send something."""
        return self.players + self.strangers

    async def snapshot(self) -> list[tuple[Any, ...]]:
        """Return what must not change: each game's status, version, seats and log length."""
        found = []
        for game_id in (1, 2):
            row = await self.bot.db.game(game_id)
            assert row is not None
            log = await self.bot.db.actions(game_id)
            found.append((row.status, row.version, tuple(s.user_id for s in row.seats), len(log)))
        return found

    def public_count(self) -> int:
        """Return how many public messages the channels hold."""
        channels = (self.fish, self.flippers, self.elsewhere)
        return sum(1 for c in channels for m in self.driver.messages(c) if m.content != FORGED)


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from seed 2, so runs repeat."""
    seed_games(monkeypatch, 2)


@pytest_asyncio.fixture
async def table(driver: Driver, fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """Start the bot and two games, each in its placement or setup phase."""
    bot = await start_floe(driver, replace(floe_settings_for(tmp_path, fake_discord), dev_guild_id=None))
    alice, bob = driver.user("alice"), driver.user("bob")
    strangers = [driver.user("mallory"), driver.user("trent")]
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    other = fake_discord.add_guild("Elsewhere")
    elsewhere = fake_discord.add_text_channel(other, "games")
    for user in (alice, bob, *strangers):
        driver.user(user.name, guild=other)
    for channel, game in ((driver.channel, "fish"), (general, "flippers")):
        for user, command in ((alice, f"/game new game:{game}"), (bob, "/game join"), (alice, "/game start")):
            await driver.slash(user, command, channel=channel).settle(quiet=0.01)
    yield Table(driver, bot, driver.channel, general, elsewhere, [alice, bob], strangers)


def forged(driver: Driver, channel: FakeChannel, custom_id: str) -> FakeMessage:
    """Put a message with a button carrying `custom_id` in a channel, as a forger could."""
    button = {"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}
    payload = {"content": FORGED, "components": [{"type": 1, "components": [button]}]}
    return driver.fake.create_message(channel, driver.fake.bot_user, payload, [])


def legal_words(table: Table) -> list[str]:
    """Return every tile label of the fish game (a typed tile containing one might be a legal move)."""
    return [f"{row}{n}" for row in "ABCDEFGH" for n in range(1, 9)]


async def is_legal_discard(table: Table, user: FakeUser, text: str) -> bool:
    """Tell whether a typed discard would be a legal setup discard of the caller in the Flippers game."""
    row = await table.bot.db.game(2)
    assert row is not None and row.state is not None
    game = get("flippers")
    state = game.load(row.state)
    seat = row.seat_of(user.id)
    if seat is None:
        return False
    try:
        picked = discard_refs(state, seat, text)
    except UserError:
        return False
    legal = [sorted(a["cards"]) for a in game.legal_actions(state, seat) if a["type"] == "discard"]
    return sorted(picked) in legal


hostile_text = st.one_of(
    st.text(alphabet=" ,", min_size=1, max_size=5),
    st.text(min_size=1, max_size=40),
    st.sampled_from(["\u200b", "'", '"', "c-flip", "Flip, Flip", "N13", "-1", "@everyone", "<@1>", "x" * 100]),
)
huge = st.integers(min_value=-(2**70), max_value=2**70) | st.sampled_from([0, 1, 2, 3, 2**63 - 1, 2**63, 2**64])


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, Any]:
    """Draw one hostile interaction: a slash command, a forged press or a wrong-user press."""
    kind = draw(st.sampled_from(["slash"] * 5 + ["forged"] * 3 + ["press"] * 2))
    if kind == "slash":
        command = draw(
            st.sampled_from(
                [
                    "fish place tile",
                    "fish move",
                    "flippers discard",
                    "flippers discard",
                    "flippers discard",
                    "flippers play",
                    "flippers activate",
                    "game history",
                    "game replay",
                    "game join",
                    "game start",
                    "game leave",
                    "game addbot",
                    "game cancel",
                    "game resign",
                    "game hand",
                ]
            )
        )
        return kind, (command, draw(hostile_text), draw(hostile_text), draw(huge))
    if kind == "forged":
        game_id = draw(st.sampled_from([1, 2]) | huge.map(abs))  # only floe:<digits>:... reaches the bot
        version = draw(st.integers(min_value=0, max_value=4) | st.integers(min_value=0, max_value=2**70))
        token = draw(st.sampled_from(TOKENS) | st.text(alphabet="abcdefghij:#?-", min_size=1, max_size=20))
        return kind, (f"floe:{game_id}:{version}:{token}", draw(st.integers(0, 2)))
    return kind, (draw(st.integers(0, 10)), draw(st.integers(0, 24)))


async def send(table: Table, user: FakeUser, kind: str, data: Any) -> InteractionResult | None:
    """Send one hostile case as `user`; return None when it would be an honest legal move instead."""
    driver = table.driver
    if kind == "slash":
        command, text, other, number = data
        channel = table.flippers if command.startswith("flippers") else table.fish
        if command.startswith(("fish",)) and any(w.lower() in (text + other).lower() for w in legal_words(table)):
            return None
        if command == "flippers discard" and await is_legal_discard(table, user, text):
            return None
        if command in ("game cancel", "game resign", "game leave", "game start") and user in table.players:
            return None
        line = {
            "fish place tile": ("/fish place", {"tile": text}),
            "fish move": ("/fish move", {"from": text, "to": other}),
            "flippers discard": ("/flippers discard", {"cards": text}),
            "flippers play": ("/flippers play", {"card": text, "cell": other, "facing": text[:2]}),
            "flippers activate": ("/flippers activate", {"card": text}),
            "game history": ("/game history", {"game_number": number, "page": number}),
            "game replay": ("/game replay", {"game_number": number}),
        }.get(command, (f"/{command}", {}))
        return driver.slash(user, line[0], channel=channel, options=line[1], validate=False)
    if kind == "forged":
        custom_id, where = data
        if len(custom_id) > 100:
            custom_id = custom_id[:100]
        channel = (table.fish, table.flippers, table.elsewhere)[where]
        return driver.press(user, forged(driver, channel, custom_id), label="Forged")
    pick, option = data
    row = await table.bot.db.game(1)
    assert row is not None and row.state is not None
    game = get("fish")
    to_act = game.to_act(game.load(row.state))
    if user.id in [row.seats[s].user_id for s in to_act]:
        return None
    board = [m for m in driver.messages(table.fish) if m.attachments][-1]
    selects = [c for c in iter_components(board.components) if c.get("options")]
    select = selects[pick % len(selects)]
    value = select["options"][option % len(select["options"])]["value"]
    return driver.press(user, board, custom_id=select["custom_id"], values=[value])


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=cases(), who=st.integers(0, 3))
async def test_hostile_input_gets_a_private_specific_answer_and_changes_nothing(
    table: Table, case: tuple[str, Any], who: int
) -> None:
    before, public = await table.snapshot(), table.public_count()
    user = table.everyone[who]
    sent = await send(table, user, *case)
    event("an honest move, not sent" if sent is None else f"sent: {case[0]}")
    if sent is None:
        return
    await sent.settle(quiet=0.005)
    answers = sent.messages
    assert answers, sent.interaction.describe()
    assert all(m.ephemeral for m in answers), [m.content for m in answers]
    assert not any(GENERIC in m.content for m in answers), [m.content for m in answers]
    table.driver.check()
    assert await table.snapshot() == before
    assert table.public_count() == public
    await asyncio.sleep(0)
