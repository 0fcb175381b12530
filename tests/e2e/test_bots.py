"""End-to-end games against computer players through the fake Discord: seating, playing, finishing, restarting."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot import IceFloeBot
from config import Settings
from storage.database import FINISHED, StaleVersion
from tests.e2e.helpers_games import seed_games, start_floe
from tests.harness import Driver, FakeChannel, FakeMessage, FakeUser
from ui import replays

BOT_BUDGET = 0.05
TURN_PING = re.compile(r"<@(\d+)>, it's your turn\.")


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the bot deal every game from seed 1 instead of SystemRandom, so runs repeat."""
    seed_games(monkeypatch, 1)


async def settle(driver: Driver, bot: IceFloeBot, *, within: float = 20.0) -> None:
    """Wait until no handler runs, no computer player thinks or moves, and Discord has been quiet a moment."""
    await driver.idle(quiet=0.01, within=within)
    await asyncio.wait_for(bot.flow.bots.idle(), timeout=within)
    await driver.idle(quiet=0.01, within=within)


def boards(driver: Driver, channel: FakeChannel | None = None) -> list[FakeMessage]:
    """Return the channel's messages that carry a board picture."""
    return [m for m in driver.messages(channel) if m.attachments and m.attachments[0].filename.endswith(".png")]


def check_picture(message: FakeMessage, prefix: str) -> None:
    """Check a board message carries one real PNG with alt text."""
    assert len(message.attachments) == 1, message
    picture = message.attachments[0]
    assert picture.filename.startswith(prefix) and picture.filename.endswith(".png"), picture.filename
    assert picture.description, f"no alt text on {picture.filename}"
    with picture.image() as image:
        assert image.format == "PNG" and image.width >= 200


def standings(message: FakeMessage, names: list[str]) -> dict[str, tuple[int, int]]:
    """Return name -> (rank, points) for each of `names` from a final-standings board, failing if one is missing."""
    found = {}
    for name in names:
        score = r"(-?\d+) (?:points|fish)"  # fish standings give fish, then tiles
        line = re.search(rf"^(\d+)\. (?:🏆 )?{re.escape(name)}(?: \([^)]*\))?: {score}", message.content, re.M)
        assert line, f"{name} is not in the standings: {message.content}"
        found[name] = (int(line.group(1)), int(line.group(2)))
    return found


async def open_lobby(driver: Driver, host: FakeUser, command: str = "/game new game:fish") -> FakeMessage:
    """Open a lobby and return its message."""
    lobby = await driver.slash(host, command).settle(quiet=0.01)
    assert not lobby.ephemeral and lobby.message.embeds, lobby.text
    return lobby.message


async def add_easy_bot(driver: Driver, host: FakeUser) -> None:
    """Seat an easy computer player with /game addbot."""
    added = await driver.slash(host, "/game addbot level:easy").settle(quiet=0.01)
    assert not added.ephemeral and "(easy) joined" in added.content, added.content


async def play_fish_turn(driver: Driver, player: FakeUser, rng: random.Random) -> None:
    """Pick a legal placement or move from the autocomplete choices, as a person would, and play it."""
    tiles = [c["value"] for c in await driver.autocomplete(player, "/fish place tile:")]
    if tiles:
        command = f"/fish place tile:{rng.choice(tiles)}"
    else:
        start = rng.choice([c["value"] for c in await driver.autocomplete(player, "/fish move from:")])
        ends = [c["value"] for c in await driver.autocomplete(player, f"/fish move from:{start} to:")]
        command = f"/fish move from:{start} to:{rng.choice(ends)}"
    played = await driver.slash(player, command).settle(quiet=0.01)
    assert not played.ephemeral, f"{command}: {played.content}"


async def play_fish_against_easy_bot(driver: Driver, bot: IceFloeBot, player: FakeUser, seed: int) -> FakeMessage:
    """Play a whole game of fish as `player` against the easy bot seated after them; return the final board."""
    rng = random.Random(seed)
    for _ in range(60):
        await settle(driver, bot)
        board = driver.last_message()
        if "**Final standings**" in board.content:
            return board
        assert TURN_PING.findall(board.content) == [str(player.id)], board.content
        before = len(boards(driver))
        await play_fish_turn(driver, player, rng)
        await settle(driver, bot)
        new = boards(driver)[before:]
        assert re.match(r"(Turn \d+: )?Alice (placed|moved) ", new[0].content), new[0].content
        for previous, reply in itertools.pairwise(new):
            assert re.match(r"(Turn \d+: )?Bot 1 \(easy\) (placed|moved) ", reply.content), reply.content
            check_picture(reply, "fish-")
            assert reply.interaction_id is None and reply.author.id == driver.fake.bot_user.id
            assert all(c.get("disabled") for c in previous.interactive_components()), "the board before stayed live"
        if len(new) > 1 and TURN_PING.search(new[-1].content):
            assert not any(c.get("disabled") for c in new[-1].interactive_components()), new[-1].components
    raise AssertionError("the game did not end within 60 turns")


async def test_bots_seated_by_command_and_button_play_to_the_end(driver: Driver, floe_settings: Settings) -> None:
    bot = await start_floe(driver, floe_settings)
    alice = driver.user("alice")
    lobby = await open_lobby(driver, alice)
    await add_easy_bot(driver, alice)
    pressed = await driver.press(alice, lobby, label="Add bot").settle(quiet=0.01)
    assert pressed.response_type == 7, pressed
    assert "Bot 1 (easy)" in lobby.text and "Bot 2 (easy)" in lobby.text, lobby.text
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and [s.bot_level for s in row.seats] == [None, "easy", "easy"]
    assert all(s.user_id < 0 for s in row.seats[1:])

    await driver.slash(alice, "/game start").settle(quiet=0.01)
    handed = await driver.slash(alice, "/game resign hand_to_bot:easy").settle(quiet=0.01)
    assert not handed.ephemeral and "handed their seat to the easy computer player" in handed.content, handed.content
    await settle(driver, bot)

    final = driver.last_message()
    assert "**Final standings**" in final.content, final.content
    ranks = standings(final, ["Alice (bot)", "Bot 1 (easy)", "Bot 2 (easy)"])
    assert min(rank for rank, _ in ranks.values()) == 1, final.content
    assert "<@" not in final.content, "nobody should be pinged when only computer players are left"
    posted = boards(driver)
    for board in posted:
        check_picture(board, "fish-")
    assert all(c.get("disabled") for b in posted[:-1] for c in b.interactive_components())
    done = await bot.db.game(row.id)
    assert done is not None and done.status == FINISHED
    assert len(posted) == len(await bot.db.actions(row.id)) + 1


async def test_full_fish_game_against_an_easy_bot_then_history_stats_and_rematch(
    driver: Driver, floe_settings: Settings
) -> None:
    bot = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_lobby(driver, alice)
    await add_easy_bot(driver, alice)
    await driver.slash(alice, "/game start").settle(quiet=0.01)
    final = await play_fish_against_easy_bot(driver, bot, alice, seed=3)
    ranks = standings(final, ["Alice", "Bot 1 (easy)"])
    winners = [name for name, (rank, _) in ranks.items() if rank == 1]
    congratulated = final.content.split("Congratulations", 1)[1]
    assert ("Alice" in winners) == (alice.mention in congratulated), final.content
    assert ("Bot 1 (easy)" in winners) == ("Bot 1 (easy)" in congratulated), final.content
    score = ranks["Alice"]

    first = await driver.slash(bob, "/game history").settle(quiet=0.01)
    header = re.match(r"\*\*Hey, That's My Fish!, game #1: moves, page 1 of (\d+)\*\*$", first.content.splitlines()[0])
    assert first.ephemeral and header and int(header.group(1)) >= 2, first.content
    pages = int(header.group(1))
    # Setup first (the placements, under one label), then one number per move, as the board counts turns.
    lines = first.content.splitlines()[1:]
    assert lines[0].startswith("`Setup` Alice placed a penguin on"), lines
    labels = [int(t) for line in lines for t in re.findall(r"^`Turn (\d+)` ", line)]
    assert labels == list(range(1, len(labels) + 1)) and labels, lines
    assert not any(re.search(r"Turn \d+: ", line) for line in lines)  # the number is said once
    # Next turns the page in place, Previous turns it back, and both buttons survive a restart (persistent).
    second = await driver.press(bob, first.message, label="Next").settle(quiet=0.01)
    assert second.response_type == 7, second.interaction.describe()
    turned = first.message.content
    assert turned.splitlines()[0].endswith(f"page 2 of {pages}**"), turned
    more = [int(t) for line in turned.splitlines()[1:] for t in re.findall(r"^`Turn (\d+)` ", line)]
    assert more[0] == labels[-1] + 1, turned
    await driver.press(bob, first.message, label="Previous").settle(quiet=0.01)
    assert first.message.content.splitlines()[0].endswith(f"page 1 of {pages}**")
    beyond = await driver.slash(bob, "/game history page:999").settle(quiet=0.01)
    assert beyond.ephemeral and f"has {pages} pages of moves, so there is no page 999" in beyond.content

    mine = await driver.slash(alice, "/game stats").settle(quiet=0.01)
    won = int(score[0] == 1)
    alice_after, bot_after = PlackettLuce().rate(
        [[PlackettLuce().rating()], [PlackettLuce().rating()]], ranks=[ranks["Alice"][0], ranks["Bot 1 (easy)"][0]]
    )
    rating = alice_after[0]
    place = 1 if rating.ordinal() >= bot_after[0].ordinal() else 2
    expected = (
        f"Hey, That's My Fish!: 1 game, {won} {'win' if won == 1 else 'wins'},"
        f" rating {rating.ordinal():.1f} (μ {rating.mu:.1f}, σ {rating.sigma:.1f}), provisional,"
        f" #{place} of 2 in this server, best score {score[1]}"
    )
    assert mine.ephemeral and mine.content.splitlines() == ["**Alice**", expected], mine.content
    check_picture(mine.message, "ratings")
    theirs = await driver.slash(bob, "/game stats user:alice").settle(quiet=0.01)
    assert theirs.content == mine.content
    assert "Bob has not finished a game" in (await driver.slash(bob, "/game stats").settle(quiet=0.01)).content
    board = await driver.slash(bob, "/game leaderboard game:fish").settle(quiet=0.01)
    heading, active, *lines = board.content.splitlines()
    assert heading.startswith("**Hey, That's My Fish! leaderboard**") and len(lines) == 2, board.content
    assert active == "Players with a rated game in the last 90 days.", board.content
    lines.insert(0, heading)
    assert lines[place] == (
        f"{place}. {alice.mention}*: {rating.ordinal():.1f} · 1 game, {won} {'win' if won == 1 else 'wins'},"
        f" best score {score[1]}"
    ), board.content
    assert lines[3 - place].startswith(f"{3 - place}. Computer player (easy)*: {bot_after[0].ordinal():.1f}")
    tank = await driver.slash(bob, "/game leaderboard game:tank").settle(quiet=0.01)
    assert "Nobody has finished a rated game of 10 Gallon Tank" in tank.content, tank.content

    rematch = await driver.press(alice, final, label="Rematch").settle(quiet=0.01)
    assert not rematch.ephemeral and rematch.content.startswith(f"Rematch! {alice.mention}"), rematch.content
    assert "1. " + alice.mention in rematch.text and "2. Bot 1 (easy)" in rematch.text, rematch.text
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and row.id == 2 and [s.bot_level for s in row.seats] == [None, "easy"]
    started = await driver.slash(alice, "/game start").settle(quiet=0.01)
    check_picture(started.message, "fish-")


async def test_rematch_gives_handed_over_seats_back_to_their_people(driver: Driver, floe_settings: Settings) -> None:
    bot = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_lobby(driver, alice)
    await driver.slash(bob, "/game join").settle(quiet=0.01)
    await driver.slash(alice, "/game start").settle(quiet=0.01)
    for player in (bob, alice):
        await driver.slash(player, "/game resign hand_to_bot:easy").settle(quiet=0.01)
    await settle(driver, bot)
    final = driver.last_message()
    assert "**Final standings**" in final.content, final.content

    rematch = await driver.press(bob, final, label="Rematch").settle(quiet=0.01)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None and [(s.user_id, s.bot_level) for s in row.seats] == [(bob.id, None), (alice.id, None)]
    assert rematch.content.startswith(f"Rematch! {bob.mention} {alice.mention}:"), rematch.content
    assert f"{bob.mention} starts it with Start" in rematch.content, rematch.content


async def test_computer_move_survives_a_restart(driver: Driver, floe_settings: Settings) -> None:
    first = await start_floe(driver, floe_settings, bot_pause=30)
    alice = driver.user("alice")
    await open_lobby(driver, alice)
    await add_easy_bot(driver, alice)
    await driver.slash(alice, "/game start").settle(quiet=0.01)
    await play_fish_turn(driver, alice, random.Random(1))
    waiting = driver.last_message()
    assert waiting.content.startswith("Alice placed") and "Bot 1 (easy) places" in waiting.content, waiting.content
    await driver.stop_bot(first)
    assert driver.last_message() is waiting

    second = await start_floe(driver, floe_settings)
    moved = await driver.wait_for_message(check=lambda m: "Bot 1 (easy) placed" in m.content, after=waiting, within=15)
    check_picture(moved, "fish-")
    assert TURN_PING.findall(moved.content) == [str(alice.id)], moved.content
    await settle(driver, second)
    assert driver.last_message() is moved
    assert len(await second.db.actions(1)) == 2


async def tank_command(driver: Driver, player: FakeUser) -> str:
    """Return a legal 10 Gallon Tank command for the player, built from the autocomplete choices."""
    if groups := await driver.autocomplete(player, "/tank take group:"):
        return f"/tank take group:{groups[0]['value']}"
    if groups := await driver.autocomplete(player, "/tank split group:"):
        line = (await driver.autocomplete(player, f"/tank split group:{groups[0]['value']} line:"))[0]["value"]
        return f"/tank split group:{groups[0]['value']} line:{line}"
    return f"/tank discard card:{(await driver.autocomplete(player, '/tank discard card:'))[0]['value']}"


async def flippers_command(driver: Driver, player: FakeUser) -> str:
    """Return a legal Flippers command for the player (Leader, discard, play or activate) from autocomplete."""
    if cells := await driver.autocomplete(player, "/flippers leader cell:"):
        return f"/flippers leader cell:{cells[0]['value']}"
    if cards := await driver.autocomplete(player, "/flippers discard cards:"):
        return f"/flippers discard cards:{cards[0]['value']}"
    if cards := await driver.autocomplete(player, "/flippers play card:"):
        card = cards[0]["value"]
        cell = (await driver.autocomplete(player, f"/flippers play card:{card} cell:"))[0]["value"]
        facing = (await driver.autocomplete(player, f"/flippers play card:{card} cell:{cell} facing:"))[0]["value"]
        return f"/flippers play card:{card} cell:{cell} facing:{facing}"
    return f"/flippers activate card:{(await driver.autocomplete(player, '/flippers activate card:'))[0]['value']}"


@pytest.mark.parametrize(("kind", "command_for"), [("tank", tank_command), ("flippers", flippers_command)])
async def test_short_game_against_an_easy_bot_then_its_replay(
    kind: str,
    command_for: Callable[[Driver, FakeUser], Awaitable[str]],
    driver: Driver,
    floe_settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = await start_floe(driver, floe_settings)
    alice = driver.user("alice")
    await open_lobby(driver, alice, f"/game new game:{kind}")
    await add_easy_bot(driver, alice)
    await driver.slash(alice, "/game start").settle(quiet=0.01)
    await settle(driver, bot)
    answered: list[FakeMessage] = []
    while not answered:
        assert len(driver.messages()) < 60, "the computer player never answered"
        last = driver.last_message()
        # A Flippers turn goes on in its board, edited in place: between activations it pings nobody.
        mid_turn = kind == "flippers" and " activates " in last.content
        assert TURN_PING.findall(last.content) == ([] if mid_turn else [str(alice.id)]), last.content
        # Flippers edits its setup and turn boards in place, and pings in a line of its own: count every change.
        before, edits = len(driver.messages()), sum(len(m.versions) for m in driver.messages())
        command = await command_for(driver, alice)
        played = await driver.slash(alice, command).settle(quiet=0.01)
        await settle(driver, bot)
        changed = sum(len(m.versions) for m in driver.messages()) > edits
        assert len(driver.messages()) > before or changed, f"{command} was refused: {played.content}"
        answered = [m for m in driver.messages()[before:] if re.match(r"(Turn \d+: )?Bot 1 \(easy\)", m.content)]
    for message in answered:
        # A Flippers board posted when a turn ends is its text and menus under the picture just shown above it.
        check_picture(message if message.attachments else boards(driver)[-1], f"{kind}-")
        # The bot's own post, or (Flippers) the board the player's last command posted as its follow-up, which the
        # computer player's turn then edits in place.
        assert message.author.id == driver.fake.bot_user.id
        assert message.interaction_id in (None, played.interaction.id), message

    resigned = await driver.slash(alice, "/game resign").settle(quiet=0.01)
    assert not resigned.ephemeral, resigned.content
    final = driver.last_message()
    assert "**Final standings**" in final.content, final.content
    assert standings(final, ["Bot 1 (easy)", "Alice"])["Bot 1 (easy)"][0] == 1, final.content
    check_picture(final, f"{kind}-")
    assert final.find_component(label="Rematch")
    done = await bot.db.game(1)
    assert done is not None and done.status == FINISHED

    actions = await bot.db.actions(1)
    general = next(c for c in driver.guild.text_channels() if c.name == "general")
    replayed = await driver.slash(alice, "/game replay game_number:1", channel=general).settle(20, quiet=0.01)
    assert not replayed.ephemeral and replayed.message.channel_id == general.id
    (gif,) = replayed.files
    assert gif.filename == "replay-1.gif" and gif.description, gif
    assert f"game #1: {len(actions)} moves" in gif.description, gif.description
    with gif.image() as image:
        assert image.format == "GIF" and image.is_animated and image.n_frames == len(actions) + 1

    def never(*args: object) -> None:
        raise AssertionError("a cached replay was drawn again")

    monkeypatch.setattr(replays, "replay_frames", never)
    again = await driver.slash(alice, "/game replay game_number:1").settle(20, quiet=0.01)
    assert again.ephemeral and not again.files, "asked again, the posted replay is linked, not posted again"
    assert f"/{general.id}/{replayed.message.id}" in again.content, again.content
    driver.fake.delete_message(replayed.message)  # once that post is gone, the kept GIF is posted again
    again = await driver.slash(alice, "/game replay game_number:1", channel=general).settle(20, quiet=0.01)
    (cached,) = again.files
    assert cached.data == gif.data and not again.ephemeral


async def test_computer_players_read_the_game_again_after_a_version_conflict(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await start_floe(driver, floe_settings)
    alice = driver.user("alice")
    await open_lobby(driver, alice)
    await add_easy_bot(driver, alice)
    saving = bot.db.record_action
    conflicts = []

    async def conflicting(game_id: int, expected_version: int, *args: object, **kwargs: Any) -> int:
        if kwargs.get("user_id", 0) < 0 and not conflicts:  # another process wrote this version first
            conflicts.append(expected_version)
            raise StaleVersion("Someone else acted first: this board is out of date.")
        return await saving(game_id, expected_version, *args, **kwargs)

    monkeypatch.setattr(bot.db, "record_action", conflicting)
    await driver.slash(alice, "/game start").settle(quiet=0.01)
    await driver.slash(alice, "/game resign hand_to_bot:easy").settle(quiet=0.01)
    await settle(driver, bot)
    assert conflicts, "no computer move met a version conflict"
    row = await bot.db.latest_game_in(driver.channel.id)
    assert row is not None and row.status == FINISHED, "the computer players stopped at a version conflict"


async def test_computer_players_try_again_after_an_unexpected_fault(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await start_floe(driver, floe_settings)
    alice = driver.user("alice")
    await open_lobby(driver, alice)
    await add_easy_bot(driver, alice)
    thinking = bot.flow.bots.think
    faults = []

    async def crashing_once(*args: Any, **kwargs: Any) -> dict[str, Any]:
        if not faults:  # a thinking worker that died mid-move
            faults.append(args)
            raise RuntimeError("the thinking worker died")
        return await thinking(*args, **kwargs)

    monkeypatch.setattr(bot.flow.bots, "think", crashing_once)
    await driver.slash(alice, "/game start").settle(quiet=0.01)
    await driver.slash(alice, "/game resign hand_to_bot:easy").settle(quiet=0.01)
    await settle(driver, bot, within=60)
    assert faults, "no computer move met a fault"
    row = await bot.db.latest_game_in(driver.channel.id)
    assert row is not None and row.status == FINISHED, "the computer players stopped at one fault"
