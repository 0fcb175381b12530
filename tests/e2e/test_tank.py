"""End-to-end games of 10 Gallon Tank through the fake Discord: slash commands, board menus and hidden aquariums."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot import IceFloeBot
from config import Settings
from engine.registry import get
from engine.tank.cards import CARDS, deck_for
from engine.tank.data import RULES
from engine.tank.state import TankState
from engine.tank.text import scoring_reminders
from storage.database import FINISHED
from tests.e2e.helpers_games import (
    DM_NOTICE,
    NAMES,
    QUIET,
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

GAME = get("tank")
KINDS = {"Guppy": "guppy", "Discus": "discus", "Neon Tetra": "neon", "Angelfish": "angelfish", "Gourami": "gourami"}
LABELS = {
    "Guppy": "guppy",
    "Guppies": "guppy",
    "Discus": "discus",
    "Neon Tetra": "neon",
    "Neon Tetras": "neon",
    "Angelfish": "angelfish",
    "Gourami": "gourami",
    "Gouramis": "gourami",
    "Molly": "molly",
    "Mollies": "molly",
    "Treasure Chest": "chest",
}
PLURAL_KIND = {
    "Guppies": "guppy",
    "Discus": "discus",
    "Neon Tetras": "neon",
    "Angelfish": "angelfish",
    "Gouramis": "gourami",
    "Mollies": "molly",
    "Treasure Chest": "chest",
}
NEON = (0, 1, 3, 6, 10, 15, 21)
AQUARIUM_LINE = re.compile(r"^- (.+?) ×(\d+)(?: \(([\d, ]+)\))?: (.+)$", re.MULTILINE)
AQUARIUM_HEAD = re.compile(r"\*\*Your aquarium\*\* \((\d+) cards?, only you can see it\)")
SCORE_SO_FAR = re.compile(r"\*\*Score so far: (\d+) points?")
FINAL_SCORE = re.compile(r"\*\*Final score: (\d+) points?\*\*")
SEAT_COUNT = re.compile(r"(\w+) \([^)]*\): (\d+) cards?(?:, (\d+) discarded)?")
STANDING = re.compile(r"^(\d+)\. (🏆 )?(\w+): (\d+) points? · (.+)$", re.MULTILINE)
HELD = re.compile(r"^(.+) \(you hold (\d+)\)$")


def kind_of(name: str) -> str:
    """Return the fish type a card name shows ("Molly 3" is a Molly)."""
    return "molly" if name.startswith("Molly ") else "chest" if name == "Treasure Chest" else KINDS[name]


def molly_values(aquarium: Counter[str]) -> list[int]:
    """Return the printed values of the Mollies in an aquarium, sorted."""
    return sorted(int(name.split()[1]) for name in aquarium.elements() if kind_of(name) == "molly")


def own_points(aquarium: Counter[str]) -> dict[str, int]:
    """Score the kinds that do not depend on other aquariums, by the rulebook."""
    count = Counter(kind_of(name) for name in aquarium.elements())
    guppies = count["guppy"]
    return {
        "guppy": guppies * (2 if guppies % 2 else 3),
        "neon": NEON[min(count["neon"], 6)],
        "angelfish": count["angelfish"] // 3 * 9,
        "gourami": 5 * count["gourami"],
        "molly": sum(molly_values(aquarium)),
        "chest": 7 * count["chest"],
    }


def goal_met(goal: str, aquarium: Counter[str], players: int) -> bool:
    """Tell whether an aquarium meets the goal card (RULINGS.md house goals)."""
    fish = Counter(kind_of(name) for name in aquarium.elements() if name != "Treasure Chest")
    if goal == "community":
        types = {"guppy", "discus", "angelfish", "gourami", "molly"} | ({"neon"} if players > 2 else set())
        return all(fish[t] > 0 for t in types)
    if goal == "big_school":
        return max(fish.values(), default=0) >= 6
    return sum(fish.values()) >= 12


def discus_points(aquariums: list[Counter[str]]) -> list[int]:
    """Score Discus: 10 for every player at the top non-zero count, 5 at the next distinct count."""
    amounts = [a["Discus"] for a in aquariums]
    ranked = sorted({a for a in amounts if a > 0}, reverse=True)
    award = dict(zip(ranked, (10, 5), strict=False))
    return [award.get(a, 0) for a in amounts]


def group_cards(view: dict[str, Any], number: str) -> list[str]:
    """Return the names of the face-up cards of a public group, by the number the picture shows."""
    group = next(g for g in view["groups"] if g["label"] == number)
    (r0, r1), (c0, c1) = group["rows"], group["cols"]
    return [view["grid"][r][c]["name"] for r in range(r0, r1) for c in range(c0, c1) if view["grid"][r][c]]


def cut_lines(group: dict[str, Any]) -> list[str]:
    """Return the lines that cut a group right through: hK below row K, vK right of column K (0-based)."""
    (r0, r1), (c0, c1) = group["rows"], group["cols"]
    return [f"h{k}" for k in range(r0 + 1, r1)] + [f"v{k}" for k in range(c0 + 1, c1)]


def select_offering(message: FakeMessage, value: str) -> str:
    """Return the custom_id of the select on a message that offers `value`."""
    for component in message.interactive_components():
        if value in [o["value"] for o in component.get("options") or []]:
            return str(component["custom_id"])
    raise LookupError(f"no select on message {message.id} offers {value}")


def plural(n: int, word: str) -> str:
    """Return "1 card" / "3 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class TankTable(TableBase):
    """One game of 10 Gallon Tank in #games, with each aquarium followed from what its owner saw."""

    game_key = "tank"

    def __init__(
        self, driver: Driver, bot: IceFloeBot, players: list[FakeUser], rng: random.Random, *, menus: bool = False
    ) -> None:
        self.driver = driver
        self.bot = bot
        self.players = players
        self.rng = rng
        self.menus = menus
        self.game_id = 0
        self.names: list[str] = []
        self.boards: list[FakeMessage] = []
        self.pictures: list[tuple[int, bytes]] = []
        """Every board picture shown in the channel, in order: (message id, its bytes)."""
        self.aquariums: list[Counter[str]] = [Counter() for _ in players]
        self.discarded: list[int] = [0] * len(players)
        self.just_taken_gouramis = 0
        self.keep_all = False
        self.gourami_steps = 0
        self.edited_in_place = 0
        self.takes = 0
        self.goal = ""
        self.audit = LeakAudit(driver)
        self.unique = {name for name, n in Counter(CARDS[c].name for c in deck_for(len(players))).items() if n == 1}

    async def state(self) -> TankState:
        """Return the game state as the bot saved it."""
        state = await self.saved_state()
        assert isinstance(state, TankState)
        return state

    async def open(self) -> None:
        """Open a lobby with /game new game:tank, seat everyone and start."""
        row = await open_lobby(self.driver, self.bot, self.players, "/game new game:tank")
        self.game_id, self.names = row.id, row.names
        started = await self.driver.slash(self.players[0], "/game start").settle(quiet=QUIET)
        state = await self.state()
        self.goal = state.goal
        assert state.round == 1 and state.phase == "split"
        assert len(state.grid) == state.side**2 == (9 if len(self.players) == 2 else 16)
        await self.check_board(started.message, state)

    # -- checks ---------------------------------------------------------------------------------------

    async def check_board(self, message: FakeMessage, state: TankState) -> None:
        """Check a new board: a PNG with alt text, the old board retired, public counts only, no leak."""
        assert not message.ephemeral and not message.loading
        prefix = "tank-final" if state.phase == "over" else f"tank-round-{state.round}"
        alt = check_picture(message, prefix)
        if self.boards and message is self.boards[-1]:
            pass  # a Gourami choice edits its take's board in place
        elif self.boards:
            previous = self.boards[-1]
            assert all(c.get("disabled") for c in previous.interactive_components()), "old board still live"
            self.boards.append(message)
        else:
            self.boards.append(message)
        if state.phase != "over":
            assert "10 Gallon Tank, round" in alt
            shown = {name: (int(n), int(d or 0)) for name, n, d in SEAT_COUNT.findall(alt)}
            expected = {
                name: (sum(self.aquariums[seat].values()), self.discarded[seat]) for seat, name in enumerate(self.names)
            }
            assert shown == expected, f"public counts {shown}, expected {expected}"
        self.audit.scan(self.leaks(state))

    def leaks(self, state: TankState) -> Callable[[str], list[str]]:
        """Return a checker listing hidden card ids and distinctive hidden names found in a text."""
        hidden = [c for hand in state.hands for c in hand] + [c for pile in state.own_discards for c in pile]
        if state.phase == "over":
            hidden = [c for pile in state.own_discards for c in pile]
        ids = word_finder(hidden)
        names = word_finder(CARDS[c].name for c in hidden if CARDS[c].name in self.unique)
        # Rule texts name card types in every game whatever anyone holds: the goals and the scoring reminder.
        reminders = [f"{r['name']}: {r['text']}" for r in scoring_reminders(len(self.players))]
        goal_texts = [g.text for g in RULES.goals] + reminders

        def check(text: str) -> list[str]:
            for goal in goal_texts:
                text = re.sub(re.escape(goal), "", text, flags=re.IGNORECASE)
            return ids(text) + names(text)

        return check

    def check_aquarium_text(self, text: str, seat: int, *, over: bool = False) -> None:
        """Check a private aquarium text against the aquarium the player built (final points once over)."""
        aquarium = self.aquariums[seat]
        head = AQUARIUM_HEAD.search(text)
        assert head and int(head.group(1)) == sum(aquarium.values()), text
        listed = {LABELS[label]: (int(n), values, points) for label, n, values, points in AQUARIUM_LINE.findall(text)}
        kinds = Counter(kind_of(name) for name in aquarium.elements())
        assert {k: v[0] for k, v in listed.items()} == dict(kinds), (text, aquarium)
        points = own_points(aquarium)
        if over:
            points["discus"] = discus_points(self.aquariums)[seat]
        for kind, (_, values, said) in listed.items():
            if kind == "molly":
                assert [int(v) for v in values.split(", ")] == molly_values(aquarium), text
            expected = "scored at the end" if kind == "discus" and not over else plural(points[kind], "point")
            assert said == expected, (kind, said, expected)
        held_lines = "\n".join(line for line in text.splitlines() if not line.startswith("You discarded"))
        assert ("Discus" in held_lines) == (aquarium["Discus"] > 0), text
        if len(self.players) == 2:
            assert "Neon" not in text, text
        met = goal_met(self.goal, aquarium, len(self.players))
        total = (FINAL_SCORE if over else SCORE_SO_FAR).search(text)
        assert total and int(total.group(1)) == sum(points.values()) + (5 if met else 0), text
        assert ("so far" in text) != over, text

    async def check_hand_command(self, player: FakeUser) -> None:
        """Run /game hand and check the ephemeral answer shows exactly the player's aquarium."""
        before = len(self.driver.messages())
        shown = await self.driver.slash(player, "/game hand").settle(quiet=QUIET)
        assert shown.ephemeral and len(self.driver.messages()) == before
        self.check_aquarium_text(shown.content, self.players.index(player))
        assert [f.filename for f in shown.files] == ["tank-aquarium.png"]
        assert shown.files[0].description and shown.files[0].ephemeral

    def check_dm(self, player: FakeUser, dms_before: int, state: TankState) -> None:
        """Check the one DM a take or discard sent: the aquarium as text and as a picture."""
        dms = self.driver.dm_messages(player)
        assert len(dms) == dms_before + 1, [m.content for m in dms[dms_before:]]
        dm = dms[-1]
        assert dm.content.startswith(f"**10 Gallon Tank** (game #{self.game_id})\n**Your aquarium**"), dm.content
        seat = self.players.index(player)
        alt = check_picture(dm, "tank-aquarium")
        assert re.match(rf"{self.names[seat]}'s aquarium, {sum(self.aquariums[seat].values())} cards?\.", alt), alt
        self.check_aquarium_text(dm.content, seat, over=state.phase == "over")
        discarding = state.phase == "discard" and state.pending is not None and state.pending.seat == seat
        assert ("**Gourami:**" in dm.content) == discarding, dm.content
        assert bool(dm.interactive_components()) == discarding

    def check_hands_match(self, state: TankState) -> None:
        """Check the bot's saved aquariums hold the cards the players were seen to take."""
        for seat, hand in enumerate(state.hands):
            assert Counter(CARDS[c].name for c in hand) == self.aquariums[seat], seat

    # -- playing ------------------------------------------------------------------------------------

    def turn(self) -> FakeUser:
        """Return the one player the newest board pings."""
        players = pinged(self.board, self.players)
        assert len(players) == 1, self.board.content
        return players[0]

    async def act(
        self, player: FakeUser, command: str, *, value: str = "", custom_id: str = "", in_place: bool = False
    ) -> tuple[InteractionResult, FakeMessage]:
        """Run one action (a slash command or a menu choice); return its answer and the one new board.

        A Gourami choice (`in_place`) edits its take's board and posts a new one only when the turn passes on:
        then the board returned is the edited one when nothing new was posted.
        """
        before = len(self.driver.messages())
        others = {p.id: len(self.driver.dm_messages(p)) for p in self.players if p is not player}
        if custom_id:
            message = self.board if not custom_id.endswith(":discard") else self.driver.dm_messages(player)[-1]
            result = await self.driver.select(player, message, [value], custom_id=custom_id).settle(quiet=QUIET)
        else:
            result = await self.driver.slash(player, command).settle(quiet=QUIET)
        new = self.driver.messages()[before:]
        boards = [m for m in new if m.attachments]
        notices = [m for m in new if DM_NOTICE in m.content]
        for shown in [*self.boards[-1:], *boards]:
            if shown.attachments and (shown.id, shown.attachments[0].data) not in self.pictures[-1:]:
                self.pictures.append((shown.id, shown.attachments[0].data))
        assert len(boards) in ((0, 1) if in_place else (1,)), [m.content for m in new]
        assert len(new) == len(boards) + len(notices), [m.content for m in new]
        # Nobody else hears of a move privately, but at the end everyone gets their final aquarium by DM.
        over = (await self.state()).phase == "over"
        for other in self.players:
            if other is not player:
                final = over and not other.dms_closed
                assert len(self.driver.dm_messages(other)) == others[other.id] + final, other
                if final:
                    assert "**Final score:" in self.driver.dm_messages(other)[-1].content
        return result, boards[0] if boards else self.board

    async def play_turn(self) -> None:
        """Let the pinged player split, take or make a Gourami choice, checking what the bot offers."""
        state = await self.state()
        assert state.phase != "over"
        (seat,) = GAME.to_act(state)
        player = self.players[seat]
        if state.phase == "discard":  # the taker just moved: nobody is pinged for their Gourami choice
            assert "it's your turn" not in self.board.content, self.board.content
        else:
            assert self.turn() is player
        if state.phase == "split":
            await self.split(player, state)
        elif state.phase == "take":
            await self.take(player, state)
        else:
            await self.gourami(player, state)

    async def split(self, player: FakeUser, state: TankState) -> None:
        """Cut a group along a line chosen from what the bot offers."""
        view = GAME.view(state, None)
        legal = {g["label"]: cut_lines(g) for g in view["groups"] if g["size"] > 1}
        if self.menus:
            options = [o["value"] for c in self.board.interactive_components() for o in c.get("options") or []]
            assert sorted(options) == sorted(f"{g}:{line}" for g, lines in legal.items() for line in lines)
            choice = self.rng.choice(options)
            group, line = choice.split(":")
            result, board = await self.act(player, "", value=choice, custom_id=select_offering(self.board, choice))
            assert result.response_type == 6
        else:
            groups = [c["value"] for c in await self.driver.autocomplete(player, "/tank split group:")]
            assert sorted(groups) == sorted(legal), (groups, legal)
            group = self.rng.choice(groups)
            lines = [c["value"] for c in await self.driver.autocomplete(player, f"/tank split group:{group} line:")]
            assert lines == legal[group], (lines, legal[group])
            line = self.rng.choice(lines)
            result, board = await self.act(player, f"/tank split group:{group} line:{line}")
            assert result.response_type == 5 and not result.ephemeral
        after = await self.state()
        new = next(g["label"] for g in GAME.view(after, None)["groups"] if g["letter"] not in state.groups)
        assert f"{self.names[self.players.index(player)]} split group {group} along {line} (new group {new})" in (
            board.content
        )
        await self.check_board(board, after)

    async def take(self, player: FakeUser, state: TankState) -> None:
        """Take a group chosen from what the bot offers; check the DM and, now and then, /game hand."""
        seat = self.players.index(player)
        view = GAME.view(state, None)
        numbers = sorted(g["label"] for g in view["groups"])
        # The picture (and its alt text) numbers the groups exactly as the menus and autocomplete offer them.
        alt = self.board.attachments[0].description or ""
        assert sorted(re.findall(r"Group (\d+), row", alt)) == numbers, alt
        if self.menus:
            options = [o["value"] for o in self.board.find_component(placeholder="Take a group…")["options"]]
            assert sorted(options) == numbers
            group = self.rng.choice(options)
        else:
            offered = await self.driver.autocomplete(player, "/tank take group:")
            assert sorted(c["value"] for c in offered) == numbers
            group = self.rng.choice([c["value"] for c in offered])
        cards = group_cards(view, group)
        dms_before = len(self.driver.dm_messages(player))
        if self.menus:
            result, board = await self.act(player, "", value=group, custom_id=select_offering(self.board, group))
            assert result.response_type == 6
        else:
            result, board = await self.act(player, f"/tank take group:{group}")
            assert result.response_type == 5 and not result.ephemeral
        self.aquariums[seat].update(cards)
        self.just_taken_gouramis = cards.count("Gourami")
        self.takes += 1
        after = await self.state()
        assert f"{self.names[seat]} took group {group} ({plural(len(cards), 'card')})" in board.content
        gourami_step = after.phase == "discard"
        told = "choose privately, in the menu sent by DM (with closed DMs: `/game hand`)" in board.content
        assert told == gourami_step, board.content
        self.check_hands_match(after)
        await self.check_board(board, after)
        if not player.dms_closed:
            self.check_dm(player, dms_before, after)
        if self.takes % 5 == 1 and after.phase != "over":
            await self.check_hand_command(player)

    async def gourami(self, player: FakeUser, state: TankState) -> None:
        """Discard a fish or keep them all, privately; the channel learns only the count."""
        seat = self.players.index(player)
        assert state.pending is not None and state.pending.seat == seat
        self.gourami_steps += 1
        fish = Counter(n for n in self.aquariums[seat].elements() if n != "Treasure Chest")
        fish["Gourami"] -= self.just_taken_gouramis
        allowed = {name: n for name, n in fish.items() if n > 0}
        dms_before = len(self.driver.dm_messages(player))
        taken_board = self.board
        if self.menus:
            dm = self.driver.dm_messages(player)[-1]
            menu = dm.find_component(type=3)
            options = menu["options"]
            assert options[0]["value"] == "keep" and options[0]["label"] == "Keep all my fish"
            offered = {o["label"].removeprefix("Discard one "): o for o in options[1:]}
            assert {n: int(o["description"].removeprefix("You hold ")) for n, o in offered.items()} == allowed
            choice = "keep" if self.keep_all else self.rng.choice(["keep", *(o["value"] for o in offered.values())])
            result, board = await self.act(player, "", value=choice, custom_id=str(menu["custom_id"]), in_place=True)
            assert result.response_type == 7 and result.original is dm, result.interaction.describe()
            assert dm.content.startswith("You kept all your fish." if choice == "keep" else "Discarded."), dm.content
            assert not dm.interactive_components(), "the answered Gourami menu is still live"
        else:
            offered = await self.driver.autocomplete(player, "/tank discard card:")
            assert offered[0] == {"name": "Keep all my fish", "value": "keep"}
            held = {m.group(1): int(m.group(2)) for c in offered[1:] if (m := HELD.match(c["name"]))}
            assert held == allowed and len(offered) == len(allowed) + 1, (offered, allowed)
            choice = "keep" if self.keep_all else self.rng.choice([c["value"] for c in offered])
            result, board = await self.act(player, f"/tank discard card:{choice}", in_place=True)
            assert result.response_type == 4 and result.ephemeral, result.content
            expected = "You kept all your fish." if choice == "keep" else "Discarded."
            assert result.content.startswith(expected)
        after = await self.state()
        name = self.names[seat]
        # The choice is told on the take's board, edited in place; a new board follows once the turn passes on.
        assert (board is taken_board) == (after.phase == "discard" and after.pending is not None)
        self.edited_in_place += board is taken_board
        if choice == "keep":
            assert f"{name} kept their fish" in taken_board.content
            # The answered Gourami DM is followed by a fresh aquarium with no menu left on it.
            if not player.dms_closed:
                self.check_dm(player, dms_before, after)
        else:
            card = CARDS[choice].name
            self.aquariums[seat][card] -= 1
            self.aquariums[seat] = +self.aquariums[seat]
            self.discarded[seat] += 1
            assert f"{name} discarded 1 card" in taken_board.content
            for news in (taken_board.content, board.content.split("**Final standings**")[0]):
                assert card.split()[0] not in news.replace("(Gourami)", "").replace("Gourami,", ""), news
            if not player.dms_closed:
                self.check_dm(player, dms_before, after)
        self.check_hands_match(after)
        await self.check_board(board, after)

    async def play_to_end(self, *, max_turns: int = 200) -> None:
        """Play until the bot posts the final standings."""
        for _ in range(max_turns):
            if self.over:
                return
            await self.play_turn()
        raise AssertionError(f"game #{self.game_id} did not end within {max_turns} turns")

    async def check_final_standings(self) -> None:
        """Score every aquarium by the rulebook and compare with the posted standings."""
        state = await self.state()
        assert state.phase == "over"
        self.check_hands_match(state)
        discus = discus_points(self.aquariums)
        totals, details = [], []
        for seat, aquarium in enumerate(self.aquariums):
            points = own_points(aquarium)
            points["discus"] = discus[seat]
            points["goal"] = 5 if goal_met(self.goal, aquarium, len(self.players)) else 0
            details.append(points)
            totals.append(sum(points.values()))
        content = self.board.content
        posted = {
            name: (int(rank), bool(trophy), int(total), parts)
            for rank, trophy, name, total, parts in STANDING.findall(content)
        }
        assert set(posted) == set(self.names), content
        best = max(totals)
        for seat, name in enumerate(self.names):
            rank = 1 + sum(t > totals[seat] for t in totals)
            got_rank, trophy, total, parts = posted[name]
            assert (got_rank, trophy, total) == (rank, totals[seat] == best, totals[seat]), (name, content)
            shown = {}
            for part in parts.split(", "):
                label, value = part.rsplit(" ", 1)
                shown["goal" if label == "goal" else PLURAL_KIND[label]] = int(value)
            expected = {k: v for k, v in details[seat].items() if k != "neon" or len(self.players) > 2}
            assert shown == expected, (name, shown, expected)
        winners = {self.players[s].id for s, t in enumerate(totals) if t == best}
        congratulated = {int(i) for i in re.findall(r"<@(\d+)>", content.split("Congratulations", 1)[1])}
        assert congratulated == winners, content
        assert all(c["type"] == 2 for c in self.board.interactive_components()), "the final board offers moves"
        alt = self.board.attachments[0].description or ""
        assert alt.startswith("10 Gallon Tank, final scores.")
        row = await self.bot.db.game(self.game_id)
        assert row is not None and row.status == FINISHED
        # One board per move, but a Gourami choice that leaves more to choose edits its take's board instead.
        assert len(await self.bot.db.actions(self.game_id)) == len(self.boards) - 1 + self.edited_in_place


async def started_table(driver: Driver, bot: IceFloeBot, players: int, seed: int, *, menus: bool = False) -> TankTable:
    """Open and start a game of 10 Gallon Tank with the first `players` of alice, bob, carol…"""
    table = TankTable(driver, bot, [driver.user(n) for n in NAMES[:players]], random.Random(seed), menus=menus)
    await table.open()
    return table


@pytest.mark.parametrize(
    ("players", "menus"),
    [(2, False), (3, True), (4, False), (5, False)],
    ids=["2-slash", "3-menus", "4-slash", "5-slash"],
)
async def test_full_game(
    players: int, menus: bool, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play a whole game with slash commands picked from autocomplete, or (3 players) with the board's menus."""
    seed_games(monkeypatch, 300 + players)
    bot = await start_floe(driver, floe_settings)
    table = await started_table(driver, bot, players, seed=players, menus=menus)
    await table.play_to_end()
    await table.check_final_standings()
    pairs = zip(table.pictures, table.pictures[1:], strict=False)
    assert not [m2 for (m1, p1), (m2, p2) in pairs if p1 == p2 and m1 != m2], "a picture was posted twice in a row"
    # Every private menu closed with the game: no DM of it offers a choice any more.
    for player in table.players:
        dms = driver.dm_messages(player)
        live = [m.content[:60] for m in dms if any(not c.get("disabled") for c in m.interactive_components())]
        assert live == [], live
    # After the game /game hand still shows each player their own final aquarium, privately.
    state = await table.state()
    for seat, player in enumerate(table.players):
        shown = await driver.slash(player, "/game hand").settle(quiet=QUIET)
        assert shown.ephemeral and "**Final score:" in shown.content, shown.content
        assert shown.message is not None and shown.message.attachments
        assert f"({plural(len(state.hands[seat]), 'card')}, only you can see it)" in shown.content


async def test_full_game_on_postgresql(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch, postgres_url: str
) -> None:
    """Play a whole three-player game with the menus, saved on a PostgreSQL server."""
    seed_games(monkeypatch, 303)
    bot = await start_floe(driver, replace(floe_settings, database_url=postgres_url))
    table = await started_table(driver, bot, 3, seed=3, menus=True)
    await table.play_to_end()
    await table.check_final_standings()


async def test_closed_dms_do_not_stop_the_game(
    driver: Driver, fake_discord: FakeDiscord, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play a round with one player's DMs closed: the game goes on and they are told once to use /game hand."""
    seed_games(monkeypatch, 302)
    bot = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob", dms_closed=True)
    table = TankTable(driver, bot, [alice, bob], random.Random(7))
    await table.open()
    while (await table.state()).round == 1:
        await table.play_turn()
    refused, delivered = dm_failures(fake_discord)
    assert refused >= 2 and delivered >= 2, (refused, delivered)
    notices = [m for m in driver.messages() if DM_NOTICE in m.content]
    assert len(notices) == 1 and notices[0].content.startswith(bob.mention), [m.content for m in notices]
    assert "/game hand" in notices[0].content
    assert driver.dm_messages(bob) == []
    await table.check_hand_command(bob)


@pytest.mark.parametrize("menus", [True, False], ids=["menu", "slash"])
async def test_keeping_all_fish_sends_a_fresh_aquarium(
    menus: bool, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After "Keep all my fish" the player's DMs end with their aquarium, its Gourami menu gone."""
    seed_games(monkeypatch, 303)
    bot = await start_floe(driver, floe_settings)
    table = await started_table(driver, bot, 3, seed=11, menus=menus)
    table.keep_all = True
    while table.gourami_steps < 2 and not table.over:
        await table.play_turn()
    # Each keep was checked in TankTable.gourami: exactly one new DM, the aquarium as text and picture, no menu.
    assert table.gourami_steps >= 2
