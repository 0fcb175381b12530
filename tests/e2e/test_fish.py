"""End-to-end games of Hey, That's My Fish! through the fake Discord, checked by an independent referee."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import pytest_asyncio

from bot import IceFloeBot, create_bot
from config import Settings
from engine.registry import get
from storage.database import FINISHED
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser, InteractionResult
from ui.moves import DEEP

ROWS = "ABCDEFGH"
DIRECTIONS = ((0, 2), (0, -2), (-1, 1), (-1, -1), (1, 1), (1, -1))
PENGUINS_EACH = {2: 4, 3: 3, 4: 2}
TURN_PING = re.compile(r"((?:<@\d+>(?:, | and )?)+), it's your turn\.")
STANDING = re.compile(r"^(\d+)\. (🏆 )?(.+): (\d+) fish, (\d+) tiles?$", re.MULTILINE)
TURN_LINE = re.compile(r"^Turn (\d+) · (.+) moves a penguin\.$", re.MULTILINE)
HEADINGS = {
    (0, 2): ("→", "east"),
    (0, -2): ("←", "west"),
    (-1, 1): ("↗", "north-east"),
    (-1, -1): ("↖", "north-west"),
    (1, 1): ("↘", "south-east"),
    (1, -1): ("↙", "south-west"),
}
PLACED = re.compile(r"^(.+) placed a penguin on ([A-H]\d)\.$", re.MULTILINE)
MOVED = re.compile(r"^Turn (\d+): (.+) moved ([A-H]\d)→([A-H]\d) and took a (\d)-fish tile\.$", re.MULTILINE)
STRANDED = re.compile(r"^(.+)'s penguin on ([A-H]\d) is stranded: .+ takes its (\d)-fish tile\.$", re.MULTILINE)
ALT_SEAT = re.compile(
    r"([A-Z][a-z]+) \([^)]*\): (\d+) fish, (\d+) tiles?, (?:penguins on ([^.]*)|no penguin on the board)\."
)
NAMES = ("alice", "bob", "carol", "dave")
QUIET = 0.01  # every step of an action runs inside a handler task, which the driver watches


def cell(label: str) -> tuple[int, int]:
    """Return (row, doubled column) of a tile: the 7-tile rows sit half a hex in (RULINGS.md)."""
    row = ROWS.index(label[0])
    return row, 2 * (int(label[1:]) - 1) + (1 if row % 2 == 0 else 0)


class Referee:
    """Follow a game from the announced actions alone, by the rulebook and RULINGS.md."""

    def __init__(self, fish: dict[str, int], players: int) -> None:
        self.fish = dict(fish)
        self.present = set(fish)
        self.at = {cell(label): label for label in fish}
        self.penguins: dict[str, int] = {}
        self.collected: list[list[int]] = [[] for _ in range(players)]
        self.players = players
        self.placed = 0
        self.moved = 0

    @property
    def placing(self) -> bool:
        """Tell whether penguins are still being placed."""
        return self.placed < PENGUINS_EACH[self.players] * self.players

    def reachable(self, start: str) -> list[str]:
        """Return the tiles a penguin on `start` can slide to."""
        row, col = cell(start)
        found = []
        for d_row, d_col in DIRECTIONS:
            r, c = row + d_row, col + d_col
            while (label := self.at.get((r, c))) in self.present and label not in self.penguins:
                found.append(label)
                r, c = r + d_row, c + d_col
        return found

    def moves(self, seat: int) -> dict[str, list[str]]:
        """Return each of a seat's movable penguins with its destinations."""
        result = {}
        for tile, owner in self.penguins.items():
            if owner == seat and (ends := self.reachable(tile)):
                result[tile] = ends
        return result

    def free_one_fish_tiles(self) -> list[str]:
        """Return the tiles a penguin may be placed on."""
        return sorted(t for t in self.present if self.fish[t] == 1 and t not in self.penguins)

    def placement_seat(self) -> int:
        """Return the seat that places next (one at a time in seat order)."""
        return self.placed % self.players

    def next_mover(self, after: int) -> int:
        """Return the next seat clockwise that still has a penguin."""
        for step in range(1, self.players + 1):
            seat = (after + step) % self.players
            if seat in self.penguins.values():
                return seat
        raise AssertionError("nobody has a penguin left")

    def place(self, seat: int, tile: str) -> None:
        """Put a penguin down."""
        assert seat == self.placement_seat(), f"seat {seat} placed out of turn"
        assert tile in self.free_one_fish_tiles(), f"{tile} is not a free 1-fish tile"
        self.penguins[tile] = seat
        self.placed += 1

    def move(self, seat: int, start: str, end: str, fish: int) -> None:
        """Slide a penguin and collect the tile it left."""
        assert self.penguins.get(start) == seat, f"seat {seat} has no penguin on {start}"
        assert end in self.reachable(start), f"{start}->{end} is not a legal slide"
        assert fish == self.fish[start], f"{start} holds {self.fish[start]} fish, the bot said {fish}"
        del self.penguins[start]
        self.penguins[end] = seat
        self.present.remove(start)
        self.collected[seat].append(self.fish[start])
        self.moved += 1

    def strand(self, seat: int, tile: str, fish: int) -> None:
        """Lift a penguin the bot says is stuck, after checking it really cannot move."""
        assert self.penguins.get(tile) == seat, f"seat {seat} has no penguin on {tile}"
        assert not self.reachable(tile), f"the penguin on {tile} could still move to {self.reachable(tile)}"
        assert fish == self.fish[tile]
        del self.penguins[tile]
        self.present.remove(tile)
        self.collected[seat].append(fish)

    def by_direction(self, start: str) -> list[str]:
        """Return the destination lines a player should read, e.g. "→ east: D5 (2), D6 (1)"."""
        row, col = cell(start)
        lines = []
        for (d_row, d_col), (arrow, name) in HEADINGS.items():
            ends = []
            r, c = row + d_row, col + d_col
            while (label := self.at.get((r, c))) in self.present and label not in self.penguins:
                ends.append(f"{label} ({self.fish[label]})")
                r, c = r + d_row, c + d_col
            if ends:
                lines.append(f"{arrow} {name}: {', '.join(ends)}")
        return lines

    def tiebreak(self) -> str:
        """Return the sentence the rules call for when the most fish are tied, or ""."""
        keys = sorted((self.key(seat) for seat in range(self.players)), reverse=True)
        if len(keys) < 2 or keys[0][0] != keys[1][0]:
            return ""
        fish = keys[0][0]
        tiles = [t for f, t in keys if f == fish]
        if len(set(tiles)) == 1:
            return f"Tied on {fish} fish and {tiles[0]} tiles: the victory is shared."
        best, rest = tiles[0], ", ".join(str(t) for t in tiles if t < tiles[0])
        if tiles.count(best) > 1:
            return (
                f"Tied on {fish} fish: the most tiles breaks the tie ({best} against {rest}); "
                f"{tiles.count(best)} players still tie on {best} tiles, so they share the victory."
            )
        return f"Tied on {fish} fish: the most tiles breaks the tie, {best} tiles against {rest}."

    def stuck(self) -> list[str]:
        """Return penguins that can no longer move (the bot must have lifted them)."""
        return [tile for tile in self.penguins if not self.reachable(tile)]

    def key(self, seat: int) -> tuple[int, int]:
        """Return the ranking key: most fish, then most tiles."""
        return sum(self.collected[seat]), len(self.collected[seat])


class Table:
    """One game in #games: players, the bot, and the referee checking every board."""

    def __init__(self, driver: Driver, bot: IceFloeBot, players: list[FakeUser], rng: random.Random) -> None:
        self.driver = driver
        self.bot = bot
        self.players = players
        self.rng = rng
        self.game_id = 0
        self.names: list[str] = []
        self.referee: Referee | None = None
        self.boards: list[FakeMessage] = []
        self.last_actor = -1

    @property
    def ref(self) -> Referee:
        """Return the referee (after the game started)."""
        assert self.referee is not None, "the game has not started"
        return self.referee

    @property
    def board(self) -> FakeMessage:
        """Return the newest board."""
        return self.boards[-1]

    def seat_of(self, user: FakeUser) -> int:
        """Return a player's seat."""
        return self.players.index(user)

    def seat_named(self, name: str) -> int:
        """Return the seat shown with this name."""
        return self.names.index(name)

    async def open(self, *, balanced: bool = False) -> None:
        """Open a lobby, seat everyone with /game join, and start."""
        host, *guests = self.players
        lobby = await self.driver.slash(host, f"/game new game:fish balanced:{str(balanced).lower()}")
        assert not lobby.ephemeral and lobby.message.embeds, lobby.text
        for guest in guests:
            joined = await self.driver.slash(guest, "/game join").settle()
            assert not joined.ephemeral, joined.text
        row = await self.bot.db.open_game_in(self.driver.channel.id)
        assert row is not None and [s.user_id for s in row.seats] == [p.id for p in self.players]
        self.game_id, self.names = row.id, row.names
        started = await self.driver.slash(host, "/game start").settle()
        row = await self.bot.db.game(self.game_id)
        assert row is not None and row.state is not None
        game = get("fish")
        tiles = game.view(game.load(row.state), None)["tiles"]
        self.referee = Referee({t["label"]: t["fish"] for t in tiles}, len(self.players))
        assert sorted(self.referee.fish.values()).count(3) == 10 and len(tiles) == 60
        self.check_board(started.message, "")

    def turn(self) -> FakeUser:
        """Return the player the newest board pings."""
        ping = TURN_PING.search(self.board.content)
        assert ping, f"no turn ping on the board: {self.board.content!r}"
        ids = [int(i) for i in re.findall(r"\d+", ping.group(1))]
        assert len(ids) == 1
        return next(p for p in self.players if p.id == ids[0])

    def expected_mover(self) -> int:
        """Return the seat the referee says acts now."""
        ref = self.ref
        if ref.placing:
            return ref.placement_seat()
        return ref.next_mover(self.last_actor)

    async def choose_placement(self, player: FakeUser) -> str:
        """Pick a tile from the autocomplete choices, checking them against the referee."""
        offered = await self.driver.autocomplete(player, "/fish place tile:")
        values = [c["value"] for c in offered]
        legal = self.ref.free_one_fish_tiles()
        assert set(values) <= set(legal) and len(values) == min(25, len(legal)), (values, legal)
        assert all(c["name"] == f"{c['value']} · 1 fish" for c in offered), offered
        return self.rng.choice(values)

    async def choose_move(self, player: FakeUser) -> tuple[str, str]:
        """Pick a penguin and a destination from the autocomplete choices, checking both."""
        legal = self.ref.moves(self.seat_of(player))
        offered = await self.driver.autocomplete(player, "/fish move from:")
        starts = [c["value"] for c in offered]
        assert sorted(starts) == sorted(legal), (starts, legal)
        for choice in offered:
            assert choice["name"].startswith(f"{choice['value']} · {self.ref.fish[choice['value']]} fish ("), choice
        start = self.rng.choice(starts)
        offered = await self.driver.autocomplete(player, f"/fish move from:{start} to:")
        ends = [c["value"] for c in offered]
        assert set(ends) <= set(legal[start]) and len(ends) == min(25, len(legal[start])), (
            ends,
            legal[start],
        )
        for choice in offered:
            assert f": {choice['value']} · {self.ref.fish[choice['value']]} fish" in choice["name"], choice
            assert len(choice["name"]) <= 100
        return start, self.rng.choice(ends)

    async def play_turn(self) -> None:
        """Let the player to act choose from autocomplete and act with a slash command."""
        player = self.turn()
        assert self.seat_of(player) == self.expected_mover(), f"turn order broken: {self.board.content!r}"
        if self.ref.placing:
            tile = await self.choose_placement(player)
            result = await self.act(player, f"/fish place tile:{tile}")
        else:
            start, end = await self.choose_move(player)
            result = await self.act(player, f"/fish move from:{start} to:{end}")
        assert result.response_type == 5 and not result.ephemeral

    async def act(self, player: FakeUser, command: str) -> InteractionResult:
        """Run an action command and check the one new board it produces."""
        before = len(self.driver.messages())
        result = await self.driver.slash(player, command).settle(quiet=QUIET)
        assert len(self.driver.messages()) == before + 1, [m.content for m in self.driver.messages()[before:]]
        self.last_actor = self.seat_of(player)
        self.check_board(result.message, command)
        return result

    def follow(self, message: FakeMessage) -> None:
        """Apply what a new board announces (placement, move, stranded penguins) to the referee."""
        ref = self.ref
        for name, tile in PLACED.findall(message.content):
            ref.place(self.seat_named(name), tile)
        for turn, name, start, end, fish in MOVED.findall(message.content):
            assert int(turn) == ref.moved + 1, f"turns count from the first move: {message.content!r}"
            ref.move(self.seat_named(name), start, end, int(fish))
        for name, tile, fish in STRANDED.findall(message.content):
            ref.strand(self.seat_named(name), tile, int(fish))
        if not ref.placing:
            assert ref.stuck() == [], f"stuck penguins left on the board: {ref.stuck()}"

    def check_board(self, message: FakeMessage, command: str) -> None:
        """Check a new board: one PNG with alt text, the old board retired, scores and penguins refereed."""
        assert not message.ephemeral and not message.loading
        assert len(message.attachments) == 1, f"{command}: {message!r}"
        picture = message.attachments[0]
        ref = self.ref
        assert re.fullmatch(r"fish-(placement-\d+|turn-\d+|final)\.png", picture.filename), picture.filename
        with picture.image() as image:
            image.verify()
        with picture.image() as image:
            assert image.format == "PNG" and image.width >= 300 and image.height >= 300
        assert picture.description, "the board image has no alt text"
        if self.boards:
            previous = self.boards[-1]
            assert picture.data != previous.attachments[0].data, "the board picture did not change"
            assert all(c.get("disabled") for c in previous.interactive_components()), "old board still live"
        self.boards.append(message)
        self.follow(message)
        if not ref.placing and "**Final standings**" not in message.content:
            # Turns count from the first move: the placements are not turns.
            assert picture.filename == f"fish-turn-{ref.moved + 1}.png", picture.filename
            turn = TURN_LINE.search(message.content)
            assert turn and int(turn.group(1)) == ref.moved + 1, message.content
        shown = {
            name: (int(fish), int(tiles), sorted(where.split(", ")) if where else [])
            for name, fish, tiles, where in ALT_SEAT.findall(picture.description or "")
        }
        assert len(shown) == len(self.players), picture.description
        for seat, name in enumerate(self.names):
            penguins = sorted(t for t, owner in self.ref.penguins.items() if owner == seat)
            expected = (*self.ref.key(seat), penguins)
            assert shown[name] == expected, f"{name}: the alt text says {shown[name]}, the referee {expected}"

    @property
    def over(self) -> bool:
        """Tell whether the newest board shows the final standings."""
        return "**Final standings**" in self.board.content

    async def play_to_end(self, *, max_turns: int = 120) -> None:
        """Play turns until the bot posts the final standings."""
        for _ in range(max_turns):
            if self.over:
                return
            await self.play_turn()
        raise AssertionError(f"game #{self.game_id} did not end within {max_turns} turns")

    def check_final_standings(self) -> None:
        """Compare the posted standings with the referee's count."""
        ref = self.ref
        assert not ref.penguins, f"penguins left at the end: {ref.penguins}"
        content = self.board.content
        posted = {
            name: (int(rank), bool(trophy), int(fish), int(tiles))
            for rank, trophy, name, fish, tiles in STANDING.findall(content)
        }
        assert set(posted) == set(self.names), content
        best = max(ref.key(seat) for seat in range(len(self.players)))
        winners = {self.players[seat].id for seat in range(len(self.players)) if ref.key(seat) == best}
        for seat, name in enumerate(self.names):
            rank = 1 + sum(1 for other in range(len(self.players)) if ref.key(other) > ref.key(seat))
            expected = (rank, rank == 1, *ref.key(seat))
            assert posted[name] == expected, (name, posted[name], content)
        sentence = ref.tiebreak()
        if sentence:
            assert sentence in content.splitlines(), content
        else:
            assert "Tied on" not in content, content
        congratulated = {int(i) for i in re.findall(r"<@(\d+)>", content.split("Congratulations", 1)[1])}
        assert congratulated == winners, content
        live_selects = [c for c in self.board.interactive_components() if c["type"] != 2 and not c.get("disabled")]
        assert not live_selects, "the final board still offers moves"


@pytest.fixture
def floe_settings(tmp_path: Path, fake_discord: FakeDiscord) -> Settings:
    """Settings for a bot on a fresh database file, syncing commands to the fake guild."""
    return Settings(
        token=fake_discord.token,
        database_url=f"sqlite:///{tmp_path / 'floe.db'}",
        dev_guild_id=fake_discord.guild.id,
    )


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Make the bot deal boards from a chosen seed (default 1) instead of SystemRandom, so runs repeat."""

    def seed_with(seed: int) -> None:
        monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(seed))

    seed_with(1)
    return seed_with


async def start_floe(driver: Driver, settings: Settings) -> IceFloeBot:
    """Build Ice Floe with create_bot and start it against the fake Discord."""
    bot = create_bot(settings, guild_ready_timeout=0.05)
    await driver.start_bot(bot)
    return bot


@pytest_asyncio.fixture
async def floe(driver: Driver, floe_settings: Settings) -> IceFloeBot:
    """Run Ice Floe for one test (the driver stops it)."""
    return await start_floe(driver, floe_settings)


async def started_table(driver: Driver, bot: IceFloeBot, players: int, seed: int) -> Table:
    """Open and start a game with the first `players` of alice, bob, carol and dave."""
    table = Table(driver, bot, [driver.user(name) for name in NAMES[:players]], random.Random(seed))
    await table.open()
    return table


def snapshot(driver: Driver) -> list[tuple[int, str, int]]:
    """Return what the channel shows: every message's id, content and edit count."""
    return [(m.id, m.content, len(m.versions)) for m in driver.messages()]


def select_offering(message: FakeMessage, value: str) -> str:
    """Return the custom_id of the select on a message that offers `value`."""
    for component in message.interactive_components():
        if value in [o["value"] for o in component.get("options") or []]:
            return str(component["custom_id"])
    raise LookupError(f"no select on message {message.id} offers {value}")


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_full_game_through_slash_commands(
    players: int, driver: Driver, floe_settings: Settings, seeded: Callable[[int], None]
) -> None:
    await play_full_game(players, driver, floe_settings, seeded)


async def test_full_game_on_postgresql(
    driver: Driver, floe_settings: Settings, seeded: Callable[[int], None], postgres_url: str
) -> None:
    await play_full_game(3, driver, replace(floe_settings, database_url=postgres_url), seeded)


async def play_full_game(players: int, driver: Driver, floe_settings: Settings, seeded: Callable[[int], None]) -> None:
    """Play a whole game to the final standings and check the saved game and its log."""
    seeded(1000 + players)
    bot = await start_floe(driver, floe_settings)
    table = await started_table(driver, bot, players, seed=players)
    await table.play_to_end()
    table.check_final_standings()
    row = await bot.db.game(table.game_id)
    assert row is not None and row.status == FINISHED
    assert len(await bot.db.actions(table.game_id)) == len(table.boards) - 1


async def test_restart_mid_game_then_press_an_old_component(
    driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, seeded: Callable[[int], None]
) -> None:
    seeded(77)
    bot = await start_floe(driver, floe_settings)
    table = await started_table(driver, bot, 2, seed=77)
    while table.ref.placing:
        await table.play_turn()
    await table.play_turn()
    syncs = len(fake_discord.calls_to("PUT /applications/{application_id}/guilds/{guild_id}/commands"))
    await driver.stop_bot(bot)

    table.bot = await start_floe(driver, floe_settings)
    assert len(fake_discord.calls_to("PUT /applications/{application_id}/guilds/{guild_id}/commands")) == syncs
    player = table.turn()
    legal = table.ref.moves(table.seat_of(player))
    start = table.rng.choice(sorted(legal))
    picked = await driver.select(player, table.board, [start], custom_id=select_offering(table.board, start))
    assert picked.ephemeral and start in picked.content
    assert picked.content.splitlines()[1:] == table.ref.by_direction(start), picked.content
    for component in picked.message.interactive_components():
        for option in component.get("options") or []:
            assert len(option["label"]) <= 100 and len(option.get("description") or "") <= 100
            assert f": {option['value']} · {table.ref.fish[option['value']]} fish" in option["label"], option
    end = table.rng.choice(legal[start])
    menu = picked.message
    before = len(driver.messages())
    moved = await driver.select(player, menu, [end], custom_id=select_offering(menu, end)).settle()
    assert moved.response_type == 7 and menu.content.startswith("Done")
    assert len(driver.messages()) == before + 1
    table.last_actor = table.seat_of(player)
    table.check_board(driver.last_message(), "select after restart")
    await table.play_to_end()
    table.check_final_standings()


async def test_in_a_burst_the_old_board_is_greyed_out_as_sent_once_the_burst_is_over(
    driver: Driver, floe: IceFloeBot
) -> None:
    table = await started_table(driver, floe, 2, seed=3)
    # Known from /game start: even the game's first move in a burst is acknowledged before its game is read.
    assert table.game_id in floe.flow.bursts.games.values()
    old = table.board
    sent = [(c["custom_id"], c.get("options")) for c in old.interactive_components()]
    in_hand = {-n: time.monotonic() for n in range(1, DEEP + 2)}  # more commands in hand than a quiet channel's
    floe.flow.bursts.handling.update(in_hand)
    seat, tile = table.ref.placement_seat(), table.ref.free_one_fish_tiles()[0]
    result = await driver.slash(table.players[seat], f"/fish place tile:{tile}").settle(quiet=QUIET)
    assert result.message.attachments and result.message is not old
    assert not any(c.get("disabled") for c in old.interactive_components()), "greyed out in the middle of a burst"
    for key in in_hand:
        floe.flow.bursts.done(key)
    await driver.wait_until(lambda: all(c.get("disabled") for c in old.interactive_components()), "the old board")
    assert [(c["custom_id"], c.get("options")) for c in old.interactive_components()] == sent


async def test_same_press_twice_and_two_players_at_once_apply_one_move(driver: Driver, floe: IceFloeBot) -> None:
    table = await started_table(driver, floe, 2, seed=5)
    alice, bob = table.players
    tiles = table.ref.free_one_fish_tiles()
    board = table.board
    before = snapshot(driver)
    first = driver.select(alice, board, [tiles[0]], custom_id=select_offering(board, tiles[0]))
    again = driver.select(alice, board, [tiles[1]], custom_id=select_offering(board, tiles[1]))
    await asyncio.gather(first.settle(), again.settle())
    assert len(await floe.db.actions(table.game_id)) == 1
    assert sorted(r.ephemeral for r in (first, again) if r.response_type == 4) == [True]
    assert len(driver.messages()) == len(before) + 1
    table.last_actor = 0
    table.check_board(driver.last_message(), "double press")

    board = table.board
    tiles = table.ref.free_one_fish_tiles()
    by_alice = driver.select(alice, board, [tiles[0]], custom_id=select_offering(board, tiles[0]))
    by_bob = driver.select(bob, board, [tiles[1]], custom_id=select_offering(board, tiles[1]))
    await asyncio.gather(by_alice.settle(), by_bob.settle())
    assert len(await floe.db.actions(table.game_id)) == 2
    assert by_bob.response_type == 6
    assert by_alice.response_type == 4 and by_alice.ephemeral
    assert "not your turn" in by_alice.content or "out of date" in by_alice.content
    table.last_actor = 1
    table.check_board(driver.last_message(), "bob's press")


@pytest.mark.parametrize(
    ("who", "command", "complaint"),
    [
        ("carol", "/fish place tile:{tile}", "not playing"),
        ("bob", "/fish place tile:{tile}", "it is not your turn: it is alice's turn."),
        ("alice", "/fish place tile:Z99", "no tile"),
        ("alice", "/fish move from:A1 to:banana", "placed"),
    ],
)
async def test_refusals_are_private_and_change_nothing(
    who: str, command: str, complaint: str, driver: Driver, floe: IceFloeBot
) -> None:
    table = await started_table(driver, floe, 2, seed=9)
    outsider = driver.user("carol")
    player = {"alice": table.players[0], "bob": table.players[1], "carol": outsider}[who]
    row = await floe.db.game(table.game_id)
    assert row is not None
    before, version = snapshot(driver), row.version
    tile = table.ref.free_one_fish_tiles()[0]
    refused = await driver.slash(player, command.format(tile=tile)).settle()
    assert refused.ephemeral and complaint in refused.content.lower(), refused.content
    after = await floe.db.game(table.game_id)
    assert after is not None and after.version == version and after.state == row.state
    assert snapshot(driver) == before


async def test_stale_component_is_refused_privately(driver: Driver, floe: IceFloeBot) -> None:
    table = await started_table(driver, floe, 2, seed=11)
    old_board = table.board
    tile = table.ref.free_one_fish_tiles()[0]
    stale_id = select_offering(old_board, tile)
    await table.play_turn()
    before = snapshot(driver)
    row = await floe.db.game(table.game_id)
    assert row is not None
    stale = await driver.select(table.players[1], old_board, [tile], custom_id=stale_id, force=True).settle()
    assert stale.ephemeral and "out of date" in stale.content
    after = await floe.db.game(table.game_id)
    assert after is not None and after.version == row.version
    assert snapshot(driver) == before


async def test_closed_dms_do_not_stop_the_game(driver: Driver, fake_discord: FakeDiscord, floe: IceFloeBot) -> None:
    table = await started_table(driver, floe, 3, seed=13)
    for player in table.players:
        fake_discord.close_dms(player)
    for _ in range(12):
        await table.play_turn()
    assert len(table.boards) == 13
    dm_sends = [
        c
        for c in fake_discord.calls_to("POST /channels/{channel_id}/messages")
        if int(c.path.split("/")[4]) in {ch.id for ch in fake_discord.dm_channels.values()}
    ]
    assert all(c.status == 403 for c in dm_sends)
    notices = [m for m in driver.messages() if "cannot DM you" in m.content]
    assert len(notices) <= len(table.players)


async def test_rate_limits_do_not_duplicate_the_board(
    driver: Driver, fake_discord: FakeDiscord, floe: IceFloeBot
) -> None:
    table = await started_table(driver, floe, 2, seed=17)
    earlier_calls = len(fake_discord.calls)
    rules = [
        fake_discord.rate_limit(route, retry_after=0.05)
        for route in (
            "POST /channels/{channel_id}/messages",
            "PATCH /channels/{channel_id}/messages/{message_id}",
            "POST /webhooks/{application_id}/{token}",
            "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",  # the old board greyed out
        )
    ]
    await table.play_turn()
    assert sum(rule.hits for rule in rules) >= 2
    for rule in rules:
        if rule.hits:
            calls = fake_discord.calls_to(f"{rule.method} {rule.route}")
            statuses = [c.status for c in calls if fake_discord.calls.index(c) >= earlier_calls]
            assert statuses[:2] == [429, 200], (rule.route, statuses)
    boards = [m for m in driver.messages() if m.attachments]
    assert len(boards) == 2 and len({m.attachments[0].filename for m in boards}) == 2


async def test_lobbies_in_several_channels_at_once(driver: Driver, fake_discord: FakeDiscord, floe: IceFloeBot) -> None:
    channels = [fake_discord.add_text_channel(fake_discord.guild, f"table-{n}") for n in range(6)]
    hosts = [driver.user(f"host{n}") for n in range(6)]
    lobbies = [driver.slash(host, "/game new game:fish", channel=ch) for host, ch in zip(hosts, channels, strict=True)]
    await asyncio.gather(*(lobby.settle() for lobby in lobbies))
    refused = [lobby.content for lobby in lobbies if lobby.ephemeral]
    errors = [record.getMessage() for record in driver.take_bot_errors()]
    assert not refused and not errors, (refused, errors)
    for host, ch in zip(hosts, channels, strict=True):
        assert (await floe.db.open_game_in(ch.id)) is not None, f"no lobby in #{ch.name} for {host.name}"
