"""End-to-end games of Flippers through the fake Discord: private setup discards, plays, activations, scoring."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest

from bot import IceFloeBot
from config import Settings
from engine.flippers.cards import CARDS, POWER_NAMES, TEAMS
from engine.flippers.powers import available
from engine.flippers.state import OVER, PLAY, SETUP, FlippersState
from engine.registry import get
from storage.database import FINISHED
from tests.e2e.helpers_games import (
    DM_NOTICE,
    NAMES,
    QUIET,
    LeakAudit,
    TableBase,
    check_picture,
    dm_failures,
    floe_settings_for,
    open_lobby,
    pinged,
    seed_games,
    start_floe,
    word_finder,
)
from tests.harness import Driver, FakeDiscord, FakeMessage, FakeUser, InteractionResult

GAME = get("flippers")
DISCARDS = {2: 1, 3: 1, 4: 2, 5: 3, 6: 3}
HAND_LINE = re.compile(r"^- \*\*(.+?)\*\* \(`([^`]+)`\): ", re.MULTILINE)
ALT_SEAT = re.compile(r"(\w+) \((\w+)\): (\d+) pts · hand (\d+) · deck (\d+)")
GAVE = re.compile(r"gave (\w+) (\d+) points? from the supply\.")
SENT = re.compile(r"sent (\d+) points? from (\w+) back to the supply\.")
FOOD_AWARD = re.compile(r"^\w+ gives (\w+) (\d+) points? \(", re.MULTILINE)
LEADER_AWARD = re.compile(r"^(\w+)'s Leader at \S+ faces \w+: \+(\d+) points?\.$", re.MULTILINE)
BREAKDOWN = r"(\d+) = stash (\d+) \+ Food cards (\d+) \+ Leader (\d+)"
SOLO_LINE = re.compile(
    r"^(\d+)\. (🏆 )?(\w+) \((\w+)\): (\d+) points? = stash (\d+) \+ Food cards (\d+) \+ Leader (\d+)$", re.MULTILINE
)
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
        assert state.phase == SETUP and state.teams_mode is teams
        assert all(len(hand) == 3 for hand in state.hands)
        assert set(pinged(board, self.players)) == set(self.players)
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
        stage = "final" if state.phase == OVER else "setup" if state.phase == SETUP else f"turn-{state.turn}"
        alt = check_picture(message, f"flippers-{stage}")
        if self.boards:
            assert all(c.get("disabled") for c in self.board.interactive_components()), "old board still live"
        self.boards.append(message)
        self.follow_stashes(message.content)
        if state.phase != OVER:
            shown = {name: tuple(map(int, rest)) for name, _, *rest in ALT_SEAT.findall(alt)}
            expected = {
                name: (self.stash[s], len(state.hands[s]), len(state.decks[s])) for s, name in enumerate(self.names)
            }
            assert shown == expected, f"alt text shows {shown}, expected {expected}"
        assert state.stash == self.stash, (state.stash, self.stash)
        self.audit.scan(self.leaks(state))
        self.check_dms(state, dms_before, previous)

    def follow_stashes(self, content: str) -> None:
        """Apply the Plus and Minus lines of a board to the followed stashes."""
        for name, points in GAVE.findall(content):
            self.stash[self.names.index(name)] += int(points)
        for points, name in SENT.findall(content):
            self.stash[self.names.index(name)] -= int(points)

    def leaks(self, state: FlippersState) -> Callable[[str], list[str]]:
        """Return a checker listing hand, deck or setup-discard cards a text names (ids, names, "Bob's Flip")."""
        hidden = [c for piles in (state.hands, state.decks, state.discards) for pile in piles for c in pile]
        words = hidden + [CARDS[c].name for c in hidden]
        words += [f"{self.names[CARDS[c].team or 0]}'s {CARDS[c].power_name}" for c in hidden]
        if state.phase == SETUP:
            words += PLAY_POWERS
        return word_finder(words)

    def check_dms(self, state: FlippersState, before: list[int], previous: FlippersState | None) -> None:
        """Check that exactly the seats just dealt, drawing or discarding got one DM showing their hand."""
        after = self.private_counts()
        for seat, player in enumerate(self.players):
            changed = previous is None or (
                len(state.decks[seat]) < len(previous.decks[seat])
                or len(state.discards[seat]) > len(previous.discards[seat])
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
        assert sorted(cid for _, cid in listed) == sorted(state.hands[seat]), (text, state.hands[seat])
        assert all(name == CARDS[cid].power_name for name, cid in listed)
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
        """Run one slash command; return its answer and the one board it produced."""
        before = len(self.driver.messages())
        result = await self.driver.slash(player, command).settle(quiet=QUIET)
        new = self.driver.messages()[before:]
        boards = [m for m in new if m.attachments]
        notices = [m for m in new if DM_NOTICE in m.content]
        assert len(boards) == 1 and len(new) == 1 + len(notices), [m.content for m in new]
        self.actions += 1
        return result, boards[0]

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
        choice = self.rng.choice(offered)["value"]
        dms = self.private_counts()
        result, board = await self.act(player, f"/flippers discard cards:{choice}")
        assert result.response_type == 4 and result.ephemeral and result.content.startswith("You discarded ")
        assert f"{self.names[seat]} has chosen their discards." in board.content
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
        result, board = await self.act(player, f"/flippers play card:{card} cell:{cell} facing:{facing}")
        assert result.response_type == 5 and not result.ephemeral
        assert f"{self.names[seat]} played {CARDS[card].power_name} at {cell} facing " in board.content
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
        result, board = await self.act(player, f"/flippers activate card:{card}")
        assert result.response_type == 5 and not result.ephemeral
        after = await self.state()
        assert card in after.activated or after.current != seat or after.phase != PLAY
        await self.check_board(board, after, dms, state)

    async def play_turn(self) -> None:
        """Let the pinged player discard, play or activate."""
        state = await self.state()
        players = pinged(self.board, self.players)
        seats = sorted(self.players.index(p) for p in players)
        assert seats == GAME.to_act(state), (seats, GAME.to_act(state))
        player = players[0]
        if state.phase == SETUP:
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
                " + ".join(self.names[s] for s in range(len(self.players)) if sides[s] == side): side
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


@pytest.fixture
def floe_settings(tmp_path: Path, fake_discord: FakeDiscord) -> Settings:
    """Return settings for a bot on a fresh database file."""
    return floe_settings_for(tmp_path, fake_discord)


@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (6, False), (4, True)])
async def test_full_game_through_slash_commands(
    players: int, teams: bool, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play a whole game: private setup discards, then plays and activations picked from autocomplete."""
    seed_games(monkeypatch, 400 + players)
    bot = await start_floe(driver, floe_settings)
    table = FlippersTable(driver, bot, [driver.user(n) for n in NAMES[:players]], random.Random(players))
    await table.open(teams=teams)
    await table.play_to_end()
    await table.check_final_standings()


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
