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

import discord
import pytest
import pytest_asyncio
from discord import app_commands
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

    def table_dm(self, user: FakeUser) -> FakeChannel:
        """Return the user's direct-message channel with the bot."""
        return self.driver.dm_channel(user)

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


# -- forged payloads: option values no Discord client sends --------------------------------------------------

LIMIT = 2000
"""Discord refuses message content longer than this; an answer over it never arrives."""


def slash_options(bot: IceFloeBot) -> list[tuple[str, Any]]:
    """Return every (command line, parameter) pair of the bot's slash commands."""
    found = []
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            found += [(f"/{command.qualified_name}", parameter) for parameter in command.parameters]
    return found


OptionType = discord.AppCommandOptionType
unresolved_ids = st.integers(min_value=10**17, max_value=2**63 - 1).map(str)
huge_ids = st.integers(min_value=2**63, max_value=2**80).map(str)
not_text = st.sampled_from(["", "maybe", "yes please", "1.5", "-0", "NaN", "@everyone", "x" * 3000])


@st.composite
def forged_value(draw: st.DrawFn, parameter: Any) -> Any:
    """Draw a value a modified client could send for `parameter`, and that no Discord client would."""
    kind = parameter.type
    if parameter.choices:
        wrong = draw(st.text(min_size=1, max_size=30) | st.sampled_from(["x" * 3000, "fish " * 500]))
        assume_not = [c.value for c in parameter.choices]
        return wrong + "?" if wrong in assume_not else wrong
    if kind is OptionType.boolean:
        return draw(not_text | st.integers(-5, 5))
    if kind is OptionType.integer:
        return draw(not_text | st.floats(allow_nan=False).filter(lambda f: not f.is_integer()) | st.booleans())
    if kind is OptionType.number:
        return draw(not_text | st.integers(min_value=2**54, max_value=2**90) | st.sampled_from([float("inf"), 1e300]))
    if kind in (OptionType.user, OptionType.mentionable, OptionType.channel, OptionType.role):
        return draw(unresolved_ids | huge_ids | not_text)
    return "x" * 6001


@st.composite
def forged_commands(draw: st.DrawFn, options: list[tuple[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Draw a slash command with one forged option, or one the command does not have."""
    line, parameter = draw(st.sampled_from(options))
    if draw(st.integers(0, 9)) == 0:
        return line, {draw(st.sampled_from(["extra", "x" * 32, "game_number_"])): "1"}
    return line, {parameter.display_name: draw(forged_value(parameter))}


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), who=st.integers(0, 3), where=st.integers(0, 2))
async def test_forged_options_get_a_short_specific_private_answer_and_change_nothing(
    table: Table, data: st.DataObject, who: int, where: int
) -> None:
    line, options = data.draw(forged_commands(slash_options(table.bot)))
    before, public = await table.snapshot(), table.public_count()
    user = table.everyone[who]
    channel = (table.fish, table.flippers, table.table_dm(user))[where]
    sent = table.driver.slash(user, line, channel=channel, options=options, validate=False)
    await sent.settle(quiet=0.005)
    answers = sent.messages
    assert answers, sent.interaction.describe()
    assert all(m.ephemeral for m in answers), [m.content for m in answers]
    assert all(len(m.content) <= LIMIT for m in answers)
    assert not any(GENERIC in m.content for m in answers), [m.content for m in answers]
    assert all(len(m.content) <= 300 for m in answers), [m.content for m in answers]
    table.driver.check()
    assert await table.snapshot() == before
    assert table.public_count() == public


async def test_the_forged_payloads_seen_in_the_wild_get_plain_answers(table: Table) -> None:
    alice, mallory = table.players[0], table.strangers[0]
    cases = [
        ("/game stats", {"user": "123456789012345678"}, "could not be found"),
        ("/game stats", {"user": str(2**64 + 7)}, "could not be found"),
        ("/game settings", {"thread_default": "maybe"}, "wants true or false"),
        ("/game leaderboard", {"game": "chess " * 600}, "is not one of the choices"),
        ("/game history", {"game_number": "12abc"}, "wants a whole number"),
        ("/game history", {"game_number": 2**70}, "No game found"),
        ("/game history", {"game_number": float("inf")}, "wants a whole number"),
        ("/game new", {"game": "fish", "remind_after": 5000.5}, "must be from 0.1 to 720"),
    ]
    for line, options, said in cases:
        for user, channel in ((alice, table.fish), (mallory, table.driver.dm_channel(mallory))):
            sent = table.driver.slash(user, line, channel=channel, options=options, validate=False)
            await sent.settle(quiet=0.005)
            (answer,) = sent.messages
            assert answer.ephemeral and said in answer.content and len(answer.content) <= 200, answer.content
    table.driver.check()


# -- damaged rows: what a bad disk, a bad copy or an old bot can leave in the database ------------------------

DAMAGES = {
    "unknown game": ("UPDATE games SET kind = 'chess' WHERE id = ?", "UPDATE games SET kind = 'fish' WHERE id = ?"),
    "missing seat": ("DELETE FROM seats WHERE game_id = ? AND seat = 0", None),
    "corrupt state": ("UPDATE games SET state = '{not json' WHERE id = ?", None),
    "state of another shape": ("UPDATE games SET state = '{\"schema\": 2, \"board\": 7}' WHERE id = ?", None),
    "corrupt options": ("UPDATE games SET options = '[1, 2' WHERE id = ?", None),
}
SURFACES = (
    "/game status",
    "/game history",
    "/game replay",
    "/game hand",
    "/game list",
    "/game mine",
    "/game join",
    "/game stats",
    "/fish move",
    "autocomplete /fish move",
    "press",
)


async def send_to_damaged(table: Table, user: FakeUser, surface: str) -> InteractionResult | None:
    """Use one surface of the fish game (game 1) as `user`; return None for an autocomplete (answered by choices)."""
    driver = table.driver
    if surface == "press":
        board = [m for m in driver.messages(table.fish) if m.attachments][-1]
        select = next(c for c in iter_components(board.components) if c.get("options"))
        return driver.press(user, board, custom_id=select["custom_id"], values=[select["options"][0]["value"]])
    if surface == "autocomplete /fish move":
        return driver.autocomplete_request(user, "/fish move from:A", channel=table.fish)
    if surface == "/fish move":
        return driver.slash(user, surface, channel=table.fish, options={"from": "A1", "to": "B2"}, validate=False)
    return driver.slash(user, surface, channel=table.fish)


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(damage=st.sampled_from(sorted(DAMAGES)), surface=st.sampled_from(SURFACES), who=st.integers(0, 3))
async def test_a_damaged_row_gets_a_short_specific_answer_and_no_error_log(
    table: Table, damage: str, surface: str, who: int
) -> None:
    db = table.bot.db.backend
    saved = await db.fetch("SELECT state, options FROM games WHERE id = 1")
    seat = await db.fetch("SELECT game_id, seat, user_id, name, bot_level FROM seats WHERE game_id = 1 AND seat = 0")
    harm, undo = DAMAGES[damage]
    await db.execute(harm, (1,))
    try:
        sent = await send_to_damaged(table, table.everyone[who], surface)
        await sent.settle(quiet=0.005)
        if surface.startswith("autocomplete"):
            assert sent.choices == [] or all(isinstance(c, dict) for c in sent.choices)
        else:
            answers = sent.messages
            assert answers, sent.interaction.describe()
            assert all(m.ephemeral for m in answers), [m.content for m in answers]
            assert not any(GENERIC in m.content for m in answers), [m.content for m in answers]
            assert all(len(m.content) <= LIMIT for m in answers)
        table.driver.check()
    finally:
        if undo:
            await db.execute(undo, (1,))
        await db.execute("UPDATE games SET state = ?, options = ? WHERE id = 1", (saved[0][0], saved[0][1]))
        if not await db.fetch("SELECT 1 FROM seats WHERE game_id = 1 AND seat = 0"):
            await db.execute("INSERT INTO seats (game_id, seat, user_id, name, bot_level) VALUES (?, ?, ?, ?, ?)",
                             tuple(seat[0]))


@pytest.mark.parametrize("damage", sorted(DAMAGES))
async def test_the_host_can_cancel_a_damaged_game(table: Table, damage: str) -> None:
    await table.bot.db.backend.execute(DAMAGES[damage][0], (1,))
    alice = table.players[0]
    sent = await table.driver.slash(alice, "/game cancel", channel=table.fish).settle(quiet=0.005)
    assert [m.content for m in sent.messages] == [f"Game #1 was cancelled by <@{alice.id}>."]
    row = await table.bot.db.game(1)
    assert row is not None and row.status == "cancelled"
    table.driver.check()


@pytest.mark.parametrize("surface", SURFACES)
async def test_a_game_missing_its_last_seat_row_answers_clearly(table: Table, surface: str) -> None:
    await table.bot.db.backend.execute("DELETE FROM seats WHERE game_id = 1 AND seat = 1")  # no gap: seat 0 remains
    for user in (table.players[0], table.strangers[0]):
        sent = await send_to_damaged(table, user, surface)
        assert sent is not None
        await sent.settle(quiet=0.005)
        if surface.startswith("autocomplete"):
            continue
        assert sent.messages and all(m.ephemeral for m in sent.messages), sent.interaction.describe()
        assert not any(GENERIC in m.content for m in sent.messages), [m.content for m in sent.messages]
    table.driver.check()


@pytest.mark.parametrize(
    "custom_id", ["x", "floe::::", "floetb:accept:-1", "floetb:maybe:1", "floe-history:1:0:q", "floe:x:0:y", "?" * 100]
)
async def test_a_press_no_handler_takes_gets_one_private_answer(table: Table, custom_id: str) -> None:
    before, public = await table.snapshot(), table.public_count()
    sent = await table.driver.press(table.players[0], forged(table.driver, table.fish, custom_id), label="Forged")
    await sent.settle(quiet=0.005)
    (answer,) = sent.messages
    assert answer.ephemeral and "no longer valid" in answer.content, answer.content
    table.driver.check()
    assert await table.snapshot() == before and table.public_count() == public
