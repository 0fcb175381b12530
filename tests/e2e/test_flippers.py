"""End-to-end games of Flippers through the fake Discord: Leaders, private discards, plays, activations, scoring.

A turn keeps one public message: the board is edited in place as the card is played and each activation
resolves; the next player's board, with its ping, is posted when the turn ends.
"""

from __future__ import annotations

import hashlib
import random
import re
import statistics
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace
from itertools import combinations

import pytest

from bot import IceFloeBot
from config import Settings
from engine.flippers.cards import CARDS, POWER_NAMES, TEAMS
from engine.flippers.powers import available, marker_cell
from engine.flippers.state import LEADERS, OVER, PLAY, SETUP, FlippersState
from engine.flippers.table import label, parse_label, step
from engine.registry import get
from storage.database import FINISHED
from tests.e2e.helpers_games import (
    DM_NOTICE,
    NAMES,
    QUIET,
    TURN_PING,
    LeakAudit,
    TableBase,
    check_picture,
    dm_failures,
    open_lobby,
    pinged,
    seed_games,
    start_floe,
    word_finder,
)
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser, InteractionResult

GAME = get("flippers")
DISCARDS = {2: 1, 3: 1, 4: 2, 5: 3, 6: 3}
HAND_LINE = re.compile(r"^- \*\*(.+?)\*\*: ", re.MULTILINE)
# A seat in alt text, in full ("6 pts · hand 1 · deck 0"), compact ("6 pts, hand 1, deck 0") or summary ("6, 9, hand 1,
# deck 0": points now, then if it ended now).
ALT_SEAT = re.compile(r"(\w+) \((\w+)\): (\d+)(?: pts)?(?:, \d+)?(?: ·|,) hand (\d+)(?: ·|,) deck (\d+)")
GAVE = re.compile(r"gave (\w+) (\d+) points? from the supply\.")
SENT = re.compile(r"sent (\d+) points? from (\w+) back to the supply\.")
FOOD_AWARD = re.compile(r"^\w+ gives (\w+) (\d+) points? \(", re.MULTILINE)
LEADER_AWARD = re.compile(r"^(\w+)'s Leader at \S+ faces \w+: \+(\d+) points?\.$", re.MULTILINE)
BREAKDOWN = r"(\d+) = stash (\d+) \+ Food cards (\d+) \+ Leader (\d+)"
SOLO_LINE = re.compile(
    r"^(\d+)\. (🏆 )?(\w+) \((\w+)\): (\d+) points? = stash (\d+) \+ Food cards (\d+) \+ Leader (\d+)$", re.MULTILINE
)
def _team_list(names: list[str]) -> str:
    """Return a side's team names as English lists them: "A & B" or "A, B & C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]


TEAM_LINE = re.compile(r"^(\d+)\. (🏆 )?Team (.+): (\d+) points? together$", re.MULTILINE)
MEMBER_LINE = re.compile(r"^  · (\w+) \((\w+)\): " + BREAKDOWN + "$", re.MULTILINE)
PLAY_POWERS = [name for key, name in POWER_NAMES.items() if key != "leader"]


class FlippersTable(TableBase):
    """One game of Flippers in #games, with every stash followed from the public messages alone."""

    game_key = "flippers"

    def __init__(self, driver: Driver, bot: IceFloeBot, players: list[FakeUser], rng: random.Random) -> None:
        self.driver = driver
        self.bot = bot
        self.players = players
        self.rng = rng
        self.game_id = 0
        self.names: list[str] = []
        self.boards: list[FakeMessage] = []
        self.stash = [6] * len(players)
        self.audit = LeakAudit(driver)
        self.actions = 0
        self.followed: dict[int, tuple[int, int]] = {}
        self.keep_blocks = False
        self.leader_menus = False
        self.posted: Counter[int] = Counter()
        """Boards posted while each turn of play was going on (one per turn: the next player's)."""
        self.shown: FakeMessage | None = None
        """The public message showing the newest table picture."""
        self.pings: FakeMessage | None = None
        """The newest public message pinging players."""
        self.pictures: list[tuple[int, str]] = []
        """Every table picture shown in the channel, in order: (message id, digest of its bytes)."""

    async def state(self) -> FlippersState:
        """Return the game state as the bot saved it."""
        state = await self.saved_state()
        assert isinstance(state, FlippersState)
        return state

    async def open(self, *, teams: bool = False) -> None:
        """Open a lobby with /game new game:flippers, seat everyone and start; check the first hands."""
        command = "/game new game:flippers" + (" teams:true" if teams else "")
        row = await open_lobby(self.driver, self.bot, self.players, command)
        self.game_id, self.names = row.id, row.names
        assert row.options.get("teams") is teams
        before = self.private_counts()
        _, board = await self.act(self.players[0], "/game start")
        state = await self.state()
        assert state.phase == LEADERS and state.teams_mode is teams
        assert all(len(hand) == 0 for hand in state.hands), "cards are dealt after the Leaders are placed"
        self.note_pictures([board], None)
        assert pinged(board, self.players) == [self.players[state.first]]
        assert f"({self.names[state.first]} plays first, drawn at random)" in board.content
        await self.check_board(board, state, before, None)

    # -- checks ---------------------------------------------------------------------------------------

    def private_counts(self) -> list[int]:
        """Return how many DMs each player has had so far."""
        return [len(self.driver.dm_messages(p)) for p in self.players]

    async def check_board(
        self, message: FakeMessage, state: FlippersState, dms_before: list[int], previous: FlippersState | None
    ) -> None:
        """Check a new board: picture and alt text, public stashes, old board retired, DMs sent, no leak."""
        assert not message.ephemeral and not message.loading
        phase = state.phase
        stage = "final" if phase == OVER else phase if phase in (SETUP, LEADERS) else f"turn-{state.turn}"
        alt = check_picture(self.shown or message, f"flippers-{stage}")
        if not self.boards or message is not self.board:
            if self.boards:
                assert all(c.get("disabled") for c in self.board.interactive_components()), "old board still live"
            self.boards.append(message)
        self.follow_stashes(message)
        if state.phase != OVER:
            shown = {name: tuple(map(int, rest)) for name, _, *rest in ALT_SEAT.findall(alt)}
            expected = {
                name: (self.stash[s], len(state.hands[s]), len(state.decks[s])) for s, name in enumerate(self.names)
            }
            assert shown == expected, f"alt text shows {shown}, expected {expected}"
        assert state.stash == self.stash, (state.stash, self.stash)
        self.audit.scan(self.leaks(state))
        self.check_dms(state, dms_before, previous)

    def follow_stashes(self, message: FakeMessage) -> None:
        """Apply the Plus and Minus lines a board gained since it was last read to the followed stashes."""
        gave, sent = GAVE.findall(message.content), SENT.findall(message.content)
        seen_gave, seen_sent = self.followed.get(message.id, (0, 0))
        for name, points in gave[seen_gave:]:
            self.stash[self.names.index(name)] += int(points)
        for points, name in sent[seen_sent:]:
            self.stash[self.names.index(name)] -= int(points)
        self.followed[message.id] = (len(gave), len(sent))

    def leaks(self, state: FlippersState) -> Callable[[str], list[str]]:
        """Return a checker listing hand, deck or setup-discard cards a text names (ids, names, "Bob's Flip")."""
        hidden = [c for piles in (state.hands, state.decks, state.discards) for pile in piles for c in pile]
        words = hidden + [CARDS[c].name for c in hidden]
        words += [f"{self.names[CARDS[c].team or 0]}'s {CARDS[c].power_name}" for c in hidden]
        if state.phase == SETUP:
            words += PLAY_POWERS
        return word_finder(words)

    def check_dms(self, state: FlippersState, before: list[int], previous: FlippersState | None) -> None:
        """Check that exactly the seats just dealt, asked to discard, playing, drawing or discarding got one DM."""
        after = self.private_counts()
        for seat, player in enumerate(self.players):
            changed = previous is not None and state.phase != OVER and (
                sorted(state.hands[seat]) != sorted(previous.hands[seat])
                or len(state.discards[seat]) > len(previous.discards[seat])
                or (previous.phase == LEADERS and state.phase != LEADERS and not state.resigned[seat])
            )
            if player.dms_closed:
                assert after[seat] == 0
                continue
            assert after[seat] == before[seat] + changed, (player.name, before[seat], after[seat])
            if changed:
                dm = self.driver.dm_messages(player)[-1]
                assert dm.content.startswith(f"**Flippers** (game #{self.game_id})\n**Your hand**"), dm.content
                self.check_hand_text(dm.content, state, seat)
                alt = check_picture(dm, "flippers-hand")
                assert all(CARDS[c].name in alt for c in state.hands[seat]), alt

    def check_hand_text(self, text: str, state: FlippersState, seat: int) -> None:
        """Check a private hand text lists exactly the seat's hand, its discards and the discard prompt."""
        listed = HAND_LINE.findall(text)
        assert sorted(listed) == sorted(CARDS[cid].power_name for cid in state.hands[seat]), (text, state.hands[seat])
        assert not any(cid in text for cid in state.hands[seat]), text  # cards by name, never by id
        assert not re.search(r"\b[a-z]-[a-z]+\b", text), "a card id in player-facing text"
        assert f"Deck: {len(state.decks[seat])} card" in text
        must = state.phase == SETUP and not state.chosen[seat]
        assert ("to discard** for the whole game" in text) == must, text
        if state.discards[seat]:
            aside = ", ".join(CARDS[c].power_name for c in state.discards[seat])
            assert f"Set aside: {aside}." in text, text

    async def check_hand_command(self, player: FakeUser) -> None:
        """Run /game hand: the ephemeral answer shows exactly the player's hand, nothing public is posted."""
        before = len(self.driver.messages())
        shown = await self.driver.slash(player, "/game hand").settle(quiet=QUIET)
        assert shown.ephemeral and len(self.driver.messages()) == before
        self.check_hand_text(shown.content, await self.state(), self.players.index(player))
        assert [f.filename for f in shown.files] == ["flippers-hand.png"] and shown.files[0].ephemeral

    # -- playing ------------------------------------------------------------------------------------

    async def act(self, player: FakeUser, command: str) -> tuple[InteractionResult, FakeMessage]:
        """Run one slash command; return its answer and the one board it posted (or edited in place)."""
        result, board, _ = await self.step(player, command)
        return result, board

    async def step(self, player: FakeUser, command: str) -> tuple[InteractionResult, FakeMessage, FakeMessage | None]:
        """Run one slash command; return its answer, the newest board, and the turn's board if it was edited.

        A play or an activation edits the turn's board; only when the turn ends is a new board posted.
        """
        return await self.settle(lambda: self.driver.slash(player, command).settle(quiet=QUIET))

    async def settle(
        self, send: Callable[[], Awaitable[InteractionResult]]
    ) -> tuple[InteractionResult, FakeMessage, FakeMessage | None]:
        """Run one action; return its answer, the newest board, and the board it edited in place (if any).

        A Leader placement, a discard, a play or an activation edits the board in place; only when a turn (or the
        setup) ends is a new board posted: the next player's text, ping and menus, the picture being the one just
        shown above it. A seat whose move falls due while the board stays in place is pinged in a line of its own.
        """
        seen = {m.id for m in self.driver.messages()}
        current = self.boards[-1] if self.boards else None
        edits = len(current.versions) if current else 0
        turn = (await self.state()).turn if self.boards else 0
        result = await send()
        new = [m for m in self.driver.messages() if m.id not in seen]  # a stale ping is deleted meanwhile
        notices = [m for m in new if DM_NOTICE in m.content]
        pings = [m for m in new if not m.attachments and not m.components and TURN_PING.search(m.content)]
        boards = [m for m in new if m not in notices and m not in pings]
        assert len(boards) <= 1 and len(pings) <= 1, [m.content for m in new]
        assert not (boards and pings), "a new board pings by itself"
        edited = current if current is not None and len(current.versions) > edits else None
        assert boards or edited, "the action changed no board"
        self.posted[turn] += len(boards)
        self.actions += 1
        self.note_pictures(boards, edited)
        if pings or boards:
            self.pings = (pings or boards)[0]
        if edited is not None:
            check_picture(edited, "flippers-")
            self.follow_stashes(edited)
            if boards:
                live = [c for c in edited.interactive_components() if not c.get("disabled")]
                assert live == [], "the finished turn's board still offers moves"
        return result, boards[0] if boards else edited, edited  # type: ignore[return-value]

    def note_pictures(self, posted: list[FakeMessage], edited: FakeMessage | None) -> None:
        """Record the table pictures this action showed: an edited board's new picture, then any new board's."""
        for message in ([edited] if edited is not None else []) + posted:
            if not message.attachments:
                continue
            digest = hashlib.sha256(message.attachments[0].data).hexdigest()
            if self.pictures and self.pictures[-1] == (message.id, digest):
                continue  # the same message kept its picture (a text-only edit)
            self.pictures.append((message.id, digest))
            self.shown = message
        if posted and not posted[0].attachments:
            assert edited is not None and edited.attachments, "a board without a picture under no picture"

    def repeated_pictures(self) -> int:
        """Return how often a picture was shown again in another message right after it was shown."""
        return sum(
            1 for (m1, d1), (m2, d2) in zip(self.pictures, self.pictures[1:], strict=False) if d1 == d2 and m1 != m2
        )

    async def place_leader(self, player: FakeUser, state: FlippersState) -> None:
        """Place the Leader on a cell chosen from the autocomplete, which offers exactly the legal cells."""
        seat = self.players.index(player)
        offered = [c["value"] for c in await self.driver.autocomplete(player, "/flippers leader cell:")]
        assert offered == GAME.view(state, None)["leader_cells"]
        for other in self.players:
            if other is not player:
                assert await self.driver.autocomplete(other, "/flippers leader cell:") == []
        cell = self.rng.choice(offered)
        dms = self.private_counts()
        if self.leader_menus:
            old = self.board
            menu = old.find_component(placeholder=f"{self.names[seat]}: place your Leader…")
            assert [o["value"] for o in menu["options"]] == offered
            _, board, edited = await self.settle(
                lambda: self.driver.select(player, old, [cell], custom_id=menu["custom_id"]).settle(quiet=QUIET)
            )
        else:
            _, board, edited = await self.step(player, f"/flippers leader cell:{cell}")
        assert edited is not None, "a Leader placement posted a new board instead of editing the setup's"
        assert f"{self.names[seat]} placed their Leader at {cell} facing " in edited.content
        after = await self.state()
        leader = f"{TEAMS[seat]['letter'].lower()}-leader"
        assert label(after.where[leader]) == cell
        await self.check_board(board, after, dms, state)

    async def discard(self, player: FakeUser, state: FlippersState) -> None:
        """Choose setup discards from the autocomplete choices; only the player learns which."""
        seat = self.players.index(player)
        count = DISCARDS[len(self.players)]
        offered = await self.driver.autocomplete(player, "/flippers discard cards:")
        combos = [c["value"].split(",") for c in offered]
        hand = state.hands[seat]
        assert sorted(sorted(c) for c in combos) == sorted(sorted(c) for c in _combinations(hand, count)), (
            offered,
            hand,
        )
        kept = [c for c in offered if not self.keep_blocks or "block" not in c["value"]]
        choice = self.rng.choice(kept)["value"]
        dms = self.private_counts()
        result, board, edited = await self.step(player, f"/flippers discard cards:{choice}")
        assert result.response_type == 4 and result.ephemeral and result.content.startswith("You discarded ")
        assert edited is not None, "a discard posted a board"
        assert f"{self.names[seat]} has chosen their discards." in edited.content
        after = await self.state()
        assert sorted(after.discards[seat]) == sorted(choice.split(","))
        await self.check_board(board, after, dms, state)

    async def play(self, player: FakeUser, state: FlippersState) -> None:
        """Play a card, a cell and a facing chosen from the autocomplete choices."""
        seat = self.players.index(player)
        cards = [c["value"] for c in await self.driver.autocomplete(player, "/flippers play card:")]
        assert sorted(cards) == sorted(state.hands[seat])
        card = self.rng.choice(cards)
        cells = [c["value"] for c in await self.driver.autocomplete(player, f"/flippers play card:{card} cell:")]
        open_cells = GAME.view(state, None)["open_cells"]
        assert set(cells) <= set(open_cells) and len(cells) == min(25, len(open_cells)), (cells, open_cells)
        cell = self.rng.choice(cells)
        facings = await self.driver.autocomplete(player, f"/flippers play card:{card} cell:{cell} facing:")
        assert [c["value"] for c in facings] == ["N", "E", "S", "W"]
        assert all("aims at" in c["name"] for c in facings), facings
        facing = self.rng.choice(facings)["value"]
        dms = self.private_counts()
        result, board, edited = await self.step(player, f"/flippers play card:{card} cell:{cell} facing:{facing}")
        assert result.response_type == 4 and result.ephemeral and result.content.startswith("Done")
        assert edited is not None, "playing a card posted a new board instead of editing the turn's"
        assert f"{self.names[seat]} played {CARDS[card].power_name} at {cell} facing " in edited.content
        after = await self.state()
        assert card not in after.hands[seat] and card not in (after.decks[seat] + after.discards[seat])
        await self.check_board(board, after, dms, state)

    async def activate(self, player: FakeUser, state: FlippersState) -> None:
        """Activate one of the cards the bot offers, which must be exactly those still due this turn."""
        seat = self.players.index(player)
        offered = await self.driver.autocomplete(player, "/flippers activate card:")
        due = available(state, seat)
        assert sorted(c["value"] for c in offered) == sorted(due), (offered, due)
        card = self.rng.choice(offered)["value"]
        dms = self.private_counts()
        result, board, edited = await self.step(player, f"/flippers activate card:{card}")
        assert result.response_type == 4 and result.ephemeral
        assert edited is not None, "an activation posted a new board instead of editing the turn's"
        after = await self.state()
        assert card in after.activated or after.current != seat or after.phase != PLAY
        await self.check_board(board, after, dms, state)

    async def play_turn(self) -> None:
        """Let the pinged player discard, play or activate."""
        state = await self.state()
        if GAME.mid_turn(state, state.current):
            player = self.players[state.current]
            assert state.current == GAME.to_act(state)[0]
        else:
            assert self.pings is not None
            players = pinged(self.pings, self.players)
            seats = sorted(self.players.index(p) for p in players)
            if state.phase == SETUP:  # pinged once when the discards open; those still choosing are among them
                assert set(GAME.to_act(state)) <= set(seats), (seats, GAME.to_act(state))
                seats = GAME.to_act(state)
            else:
                assert seats == GAME.to_act(state), (seats, GAME.to_act(state))
            player = self.players[seats[0]]
        if state.phase == LEADERS:
            await self.place_leader(player, state)
        elif state.phase == SETUP:
            await self.discard(player, state)
        elif state.played is None:
            if state.turn % 7 == 1:
                await self.check_hand_command(player)
            await self.play(player, state)
        else:
            await self.activate(player, state)

    async def play_to_end(self, *, max_actions: int = 400) -> None:
        """Play until the bot posts the final standings."""
        for _ in range(max_actions):
            if self.over:
                return
            await self.play_turn()
        raise AssertionError(f"game #{self.game_id} did not end within {max_actions} actions")

    async def check_final_standings(self) -> None:
        """Check the standings: itemised stash, Food and Leader points, totals, ranks and winners."""
        state = await self.state()
        assert state.phase == OVER and not any(state.hands) and not any(state.decks)
        content = self.board.content
        food: Counter[str] = Counter()
        for name, points in FOOD_AWARD.findall(content):
            food[name] += int(points)
        leader: Counter[str] = Counter()
        for name, points in LEADER_AWARD.findall(content):
            leader[name] += int(points)
        rows: dict[str, tuple[int, int, int, int]] = {}
        if state.teams_mode:
            for name, team, total, stash, food_pts, leader_pts in MEMBER_LINE.findall(content):
                assert team == TEAMS[self.names.index(name)]["short"]
                rows[name] = (int(total), int(stash), int(food_pts), int(leader_pts))
        else:
            for _, _, name, team, total, stash, food_pts, leader_pts in SOLO_LINE.findall(content):
                assert team == TEAMS[self.names.index(name)]["short"]
                rows[name] = (int(total), int(stash), int(food_pts), int(leader_pts))
        assert set(rows) == set(self.names), content
        for seat, name in enumerate(self.names):
            total, stash, food_pts, leader_pts = rows[name]
            assert (stash, food_pts, leader_pts) == (self.stash[seat], food[name], leader[name]), (name, content)
            assert total == stash + food_pts + leader_pts
        sides = [seat % 2 if state.teams_mode else seat for seat in range(len(self.players))]
        side_total = Counter[int]()
        for seat, name in enumerate(self.names):
            side_total[sides[seat]] += rows[name][0]
        best = max(side_total.values())
        posted: dict[str, tuple[int, bool, int]] = {}
        if state.teams_mode:
            for rank, trophy, team, total in TEAM_LINE.findall(content):
                posted[team] = (int(rank), bool(trophy), int(total))
            expected_lines = {
                _team_list([TEAMS[s]["short"] for s in range(len(self.players)) if sides[s] == side]): side
                for side in set(sides)
            }
            assert set(posted) == set(expected_lines), content
        else:
            for rank, trophy, name, *_ in SOLO_LINE.findall(content):
                posted[name] = (int(rank), bool(trophy), rows[name][0])
            expected_lines = {name: seat for seat, name in enumerate(self.names)}
        for key, side in expected_lines.items():
            rank = 1 + sum(t > side_total[side] for t in side_total.values())
            assert posted[key] == (rank, side_total[side] == best, side_total[side]), (key, content)
        winners = {self.players[s].id for s in range(len(self.players)) if side_total[sides[s]] == best}
        congratulated = {int(i) for i in re.findall(r"<@(\d+)>", content.split("Congratulations", 1)[1])}
        assert congratulated == winners, content
        assert all(c["type"] == 2 for c in self.board.interactive_components()), "the final board offers moves"
        row = await self.bot.db.game(self.game_id)
        assert row is not None and row.status == FINISHED
        assert len(await self.bot.db.actions(self.game_id)) == self.actions - 1


def _combinations(hand: list[str], count: int) -> list[list[str]]:
    """Return every choice of `count` cards from a hand."""
    return [list(c) for c in combinations(hand, count)]


@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (6, False), (4, True), (6, True)])
async def test_full_game_through_slash_commands(
    players: int, teams: bool, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play a whole game: Leaders, private setup discards, then plays and activations picked from autocomplete.

    Every turn of play posts exactly one public message: the next player's board (or the final standings).
    """
    seed_games(monkeypatch, 400 + players)
    bot = await start_floe(driver, floe_settings)
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:players]], random.Random(players))
    await table.open(teams=teams)
    await table.play_to_end()
    await table.check_final_standings()
    turns = (await table.state()).turn
    assert {turn: table.posted[turn] for turn in range(1, turns + 1)} == dict.fromkeys(range(1, turns + 1), 1)
    assert table.repeated_pictures() == 0, "a picture was shown again in the next message"
    if teams:
        game_over = next(line for line in table.board.content.splitlines() if line.startswith("Game over: "))
        assert re.fullmatch(
            r"Game over: Team \w+(, \w+)*( & \w+) \(\d+ points together\) (wins|.* share the win)\..*", game_over
        )


async def test_full_game_on_postgresql(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch, postgres_url: str
) -> None:
    """Play a whole three-player game, saved on a PostgreSQL server."""
    seed_games(monkeypatch, 403)
    bot = await start_floe(driver, replace(floe_settings, database_url=postgres_url))
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:3]], random.Random(3))
    await table.open()
    await table.play_to_end()
    await table.check_final_standings()


async def test_closed_dms_do_not_stop_the_game(
    driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play setup and a few turns with one player's DMs closed: they are told once to use /game hand."""
    seed_games(monkeypatch, 402)
    bot = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob", dms_closed=True)
    table = FlippersTable(driver, bot, [alice, bob], random.Random(8))
    await table.open()
    while (await table.state()).turn < 5:
        await table.play_turn()
    refused, delivered = dm_failures(fake_discord)
    assert refused >= 3 and delivered >= 3, (refused, delivered)
    notices = [m for m in driver.messages() if DM_NOTICE in m.content]
    assert len(notices) == 1 and notices[0].content.startswith(bob.mention), [m.content for m in notices]
    assert "/game hand" in notices[0].content
    assert driver.dm_messages(bob) == []
    await table.check_hand_command(bob)


def select_offering(message: FakeMessage, value: str) -> str:
    """Return the custom_id of the select on a message that offers `value`."""
    for component in message.interactive_components():
        if value in [o["value"] for o in component.get("options") or []]:
            return str(component["custom_id"])
    raise LookupError(f"no select on message {message.id} offers {value}")


async def play_block_at_an_empty_cell(table: FlippersTable, state: FlippersState) -> str | None:
    """Play the current seat's Block through the menus, aimed at an empty cell; return that cell's label."""
    driver, seat = table.driver, state.current
    player, block = table.players[seat], f"{TEAMS[seat]['letter'].lower()}-block"
    before = len(driver.messages())
    menu = (await driver.press(player, table.board, label="Play a card…").settle(quiet=QUIET)).message
    assert menu.ephemeral
    # One menu per card in hand, each holding the nearest cells with their facings: the Block's is the one to use.
    (spots_menu,) = [c for c in menu.interactive_components() if str(c["custom_id"]).endswith(f"spot:{block}")]
    spots = [o["value"] for o in spots_menu.get("options") or []]
    assert 0 < len(spots) <= 24 and len(spots) % 4 == 0, spots
    aimed = [v for v in spots if step(parse_label(v.split(":")[0]) or (0, 0), v.split(":")[1]) not in state.cells]
    if not aimed:
        return None
    spot = aimed[0]
    played = await driver.select(player, menu, [spot], custom_id=spots_menu["custom_id"]).settle(quiet=QUIET)
    assert played.ephemeral and menu.content.startswith("Done"), menu.content
    cell, facing = spot.split(":")
    target = label(step(parse_label(cell) or (0, 0), facing))
    name = table.names[seat]
    edited = table.board
    assert f"{name}'s Block at {cell} put its marker on the empty cell {target}: a card that enters it is blocked." in (
        edited.content
    ), edited.content
    table.actions += 1
    table.posted[state.turn] += len([m for m in driver.messages()[before:] if m.attachments])
    if len(driver.messages()) > before:
        table.boards.append(driver.messages()[-1])
    table.follow_stashes(edited)
    return target


async def test_a_block_marker_waits_on_an_empty_cell_and_blocks_the_card_played_into_it(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Aim a Block at an empty cell through the menus; the card the other player then plays there cannot act."""
    seed_games(monkeypatch, 433)
    bot = await start_floe(driver, floe_settings)
    table = FlippersTable(driver, bot, [driver.user("alice"), driver.user("bob")], random.Random(9))
    table.keep_blocks = table.leader_menus = True
    await table.open()
    target = None
    for _ in range(200):
        state = await table.state()
        assert not table.over
        seat = state.current
        block = f"{TEAMS[seat]['letter'].lower()}-block"
        fresh = state.phase == PLAY and state.played is None
        if fresh and target is None and block in state.hands[seat]:
            target = await play_block_at_an_empty_cell(table, state)
            blocker = seat
            continue
        if fresh and target is not None:
            spot = parse_label(target)
            waiting = marker_cell(state, blocker) == spot and spot not in state.cells
            if not waiting:
                target = None
            elif seat != blocker:
                card = state.hands[seat][0]
                player = table.players[seat]
                _, board, edited = await table.step(player, f"/flippers play card:{card} cell:{target} facing:N")
                assert edited is not None
                line = f"{table.names[seat]}'s {CARDS[card].power_name} at {target} is under a Block marker"
                assert line + ": its power does not act." in edited.content, edited.content
                after = await table.state()
                view = GAME.view(after, None)
                assert {"cell": target, "team": blocker, "blocks": card} in [
                    {k: m[k] for k in ("cell", "team", "blocks")} for m in view["markers"]
                ]
                entry = next(c for c in view["cards"] if c["id"] == card)
                assert entry["blocked_by"] == blocker and card not in available(after, seat)
                check_picture(table.shown or board, "flippers-")
                return
        await table.play_turn()
    raise AssertionError("no Block was ever aimed at an empty cell that stayed empty")


async def test_a_restart_mid_turn_keeps_the_turns_lines_on_its_board(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stop the bot between activations; after the restart the next activation edits the same board, keeping
    every line of the turn so far (they are rebuilt from the saved log)."""
    seed_games(monkeypatch, 451)
    bot = await start_floe(driver, floe_settings)
    table = FlippersTable(driver, bot, [driver.user("alice"), driver.user("bob")], random.Random(3))
    await table.open()
    for _ in range(300):
        state = await table.state()
        if GAME.mid_turn(state, state.current):
            break
        await table.play_turn()
    else:
        raise AssertionError("no turn with two cards to activate")
    board, messages = table.board, len(driver.messages())
    lines = board.content.splitlines()[:-1]  # the last line is the status, which changes
    assert any(" played " in line for line in lines), board.content
    await driver.stop_bot(bot)

    table.bot = await start_floe(driver, floe_settings)
    card = available(state, state.current)[0]
    player = table.players[state.current]
    pressed = await driver.select(player, board, [card], custom_id=select_offering(board, card)).settle(quiet=QUIET)
    assert not pressed.ephemeral and pressed.response_type == 6  # the board itself is updated: nothing new posted
    assert board.content.splitlines()[: len(lines)] == lines and len(board.content.splitlines()) > len(lines)
    after = await table.state()
    assert card in after.activated or after.current != state.current
    posted = [m for m in driver.messages()[messages:] if m.components]  # the next board: its text and menus
    assert len(posted) == (0 if after.current == state.current else 1)


async def phone_turn(table: FlippersTable) -> int:
    """Play one turn as on a phone, pressing the board's button and picking from menus only; return the picks."""
    driver, state = table.driver, await table.state()
    seat, turn = state.current, state.turn
    player = table.players[seat]
    menu = (await driver.press(player, table.board, label="Play a card…").settle(quiet=QUIET)).message
    picks = 1
    while True:
        assert menu.ephemeral, menu.content
        options = [(c, o["value"]) for c in menu.interactive_components() for o in c.get("options") or []]
        component, value = table.rng.choice(options)
        kind = str(component["custom_id"]).split(":", 3)[3].split(":")[0]
        picks += 1
        if kind in ("spot", "cardface", "face"):
            _, board, _ = await table.settle(
                lambda c=component, v=value, m=menu: driver.select(player, m, [v], custom_id=c["custom_id"]).settle(
                    quiet=QUIET
                )
            )
            break
        menu = (
            await driver.select(player, menu, [value], custom_id=component["custom_id"]).settle(quiet=QUIET)
        ).message
    while True:
        if board is not table.board:
            table.boards.append(board)
        after = await table.state()
        if after.turn != turn or after.phase != PLAY:
            return picks
        due = available(after, seat)
        card = table.rng.choice(due)
        picks += 1
        _, board, _ = await table.settle(
            lambda c=card: driver.select(player, table.board, [c], custom_id=select_offering(table.board, c)).settle(
                quiet=QUIET
            )
        )


@pytest.mark.parametrize(("players", "teams", "seed"), [(4, True, 1), (6, False, 2), (4, False, 3), (6, True, 4)])
async def test_a_turn_takes_at_most_three_picks_on_a_phone_most_of_the_time(
    players: int, teams: bool, seed: int, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play whole games with the board's button and menus only; report the median and worst picks per turn.

    A card is played in two picks (button, then cell and facing) or three (button, another cell, card and facing);
    an activation is asked only when the order of the cards left changes the outcome. No picture is shown twice.
    """
    seed_games(monkeypatch, 460 + seed)
    bot = await start_floe(driver, floe_settings)
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:players]], random.Random(seed))
    table.leader_menus = True
    await table.open(teams=teams)
    while (await table.state()).phase != PLAY:
        await table.play_turn()
    picks = []
    while not table.over:
        picks.append(await phone_turn(table))
    median = statistics.median(picks)
    print(
        f"\n{players} players{' Team Up' if teams else ''}: {len(picks)} turns, picks per turn median {median},"
        f" worst {max(picks)}, {sum(p > 3 for p in picks)} turns over 3"
    )
    assert median <= 3 and max(picks) <= 6, picks
    assert table.repeated_pictures() == 0
