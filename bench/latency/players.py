"""Simulated players: one table per game, paced like people, acting through commands, menus and autocomplete."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

from bench.latency.fake import BenchDiscord, StateReader
from bench.latency.samples import ANSWER_TIMEOUT, Refused, Samples, no_board
from engine.registry import get
from tests.harness import (
    Driver,
    FakeChannel,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

TURN_PING = re.compile(r"<@(\d+)>, it's your turn\.")


class Pacer:
    """Make a simulated player pause like a person: think before acting, pause while typing."""

    def __init__(self, rng: random.Random, think: float, stagger: float = 0.0) -> None:
        self.rng = rng
        self.mean = think
        self.stagger = stagger

    async def arrive(self) -> None:
        """Wait a uniformly random part of the stagger before the game opens (nothing in closed loop)."""
        if self.mean > 0:
            await asyncio.sleep(self.stagger * self.rng.random())

    async def pause(self, share: float = 1.0) -> None:
        """Sleep `share` of the mean think time, uniformly 0.5x-1.5x (nothing in closed loop)."""
        if self.mean > 0:
            await asyncio.sleep(self.mean * share * self.rng.uniform(0.5, 1.5))


KINDS = ("fish", "tank", "flippers")


def seating(n: int, kinds: tuple[str, ...]) -> tuple[str, int]:
    """Return the kind and number of players of the n-th game: kinds round-robin, then 2, 3, 4 players."""
    return kinds[n % len(kinds)], 2 + (n // len(kinds)) % 3


class Table:
    """One game being played in one channel by simulated players, as they would: commands, menus, autocomplete."""

    def __init__(
        self,
        fake: BenchDiscord,
        driver: Driver,
        channel: FakeChannel,
        players: list[FakeUser],
        kind: str,
        samples: Samples,
        pacer: Pacer,
        reader: StateReader,
    ) -> None:
        self.fake = fake
        self.driver = driver
        self.channel = channel
        self.players = players
        self.kind = kind
        self.samples = samples
        self.pacer = pacer
        self.rng = pacer.rng
        self.reader = reader
        self.board: FakeMessage | None = None

    async def play(self, turns: int) -> None:
        """Open, start and play one game for `turns` actions; count it abandoned if refused."""
        try:
            await self.play_turns(turns)
        except Refused as refusal:
            self.samples.abandoned += 1
            self.samples.refusals.append(f"{self.kind}: {refusal}")
        except TimeoutError:
            self.samples.timeouts += 1
            self.samples.abandoned += 1
            self.samples.refusals.append(f"{self.kind}: no answer within {ANSWER_TIMEOUT:.0f} s")
        except (LookupError, AssertionError) as surprise:
            self.samples.abandoned += 1
            self.samples.refusals.append(f"{self.kind}: the bench could not go on: {surprise!r}"[:300])

    async def play_turns(self, turns: int) -> None:
        """Open the lobby, seat everyone, start, then act `turns` times (fewer if the game ends)."""
        host, *guests = self.players
        await self.pacer.arrive()
        await self.pacer.pause()
        await self.command(self.driver.slash(host, f"/game new game:{self.kind}", channel=self.channel))
        for guest in guests:
            await self.pacer.pause()
            await self.command(self.driver.slash(guest, "/game join", channel=self.channel))
        await self.pacer.pause()
        self.board = await self.command(self.driver.slash(host, "/game start", channel=self.channel))
        for _ in range(turns):
            await self.pacer.pause()
            if not await {"fish": self.fish_turn, "tank": self.tank_turn, "flippers": self.flippers_turn}[self.kind]():
                return
            self.samples.turns += 1

    # -- measuring ---------------------------------------------------------------------------------------

    async def command(self, result: InteractionResult, *, private: bool = False) -> FakeMessage:
        """Time a slash command or menu choice from injection to its acknowledgement and the answer shown."""
        ix = result.interaction
        await self.fake.settled(ix)
        if ix.callback_type is None or ix.acked_at is None or ix.answered_at is None:
            raise Refused(f"{ix.label}: Discord refused the answer {ix.rejections}")
        self.samples.ack.append(ix.acked_at - ix.created)
        self.samples.answer.append(ix.answered_at - ix.created)
        if result.message.ephemeral and not private:
            raise Refused(f"{ix.label}: {result.message.content}")
        return result.message

    async def move(self, result: InteractionResult, *, private: bool = False) -> FakeMessage | None:
        """Time a move: its acknowledgement, its answer and when the channel shows the board it made."""
        before = self.board_signature()
        ix = result.interaction
        try:
            seen = await self.fake.until(self.channel, lambda: self.board_signature() != before)
        except TimeoutError:
            raise TimeoutError(no_board(result)) from None
        self.samples.board.append(seen - ix.created)
        await self.fake.settled(ix)
        if ix.callback_type is None or ix.acked_at is None:
            raise Refused(f"{ix.label}: Discord refused the answer {ix.rejections}")
        self.samples.ack.append(ix.acked_at - ix.created)
        # A menu choice is answered by the board it posts (Discord shows nothing else to the player).
        self.samples.answer.append((ix.answered_at if ix.callback_type != 6 else seen) - ix.created)  # type: ignore[operator]
        if ix.callback_type not in (4, 5):
            return None
        if result.message.ephemeral and not private:
            raise Refused(f"{ix.label}: {result.message.content}")
        return result.message

    def board_signature(self) -> tuple[int, str]:
        """Return what changes when a new board is posted or the turn's board is edited."""
        boards = [m for m in self.fake.messages_in(self.channel) if m.attachments and not m.loading]
        return len(boards), boards[-1].content if boards else ""

    def current_board(self) -> FakeMessage:
        """Return the newest board in the channel."""
        return [m for m in self.fake.messages_in(self.channel) if m.attachments][-1]

    async def choices(self, player: FakeUser, typed: str) -> list[str]:
        """Time an autocomplete request and return the values offered."""
        ix = self.driver.autocomplete_request(player, typed, channel=self.channel)
        await self.fake.settled(ix.interaction)
        if ix.interaction.answered_at is None:
            raise Refused(f"{ix.interaction.label}: Discord refused the answer {ix.interaction.rejections}")
        self.samples.autocomplete.append(ix.interaction.answered_at - ix.interaction.created)
        await self.pacer.pause(0.25)
        values = [str(c["value"]) for c in ix.choices]
        if not values:
            raise Refused(f"{typed}: nothing offered")
        return values

    async def state(self) -> tuple[Any, Any] | None:
        """Read the game's saved state, as its players see it on the table; None once it is over."""
        saved = await self.reader.state(self.channel.id)
        if saved is None:
            return None
        game = get(self.kind)
        return game, game.load(json.loads(saved))

    def slash(self, player: FakeUser, line: str) -> InteractionResult:
        """Send a slash command in this table's channel."""
        return self.driver.slash(player, line, channel=self.channel)

    # -- the three games ---------------------------------------------------------------------------------

    async def fish_turn(self) -> bool:
        """Place or move a penguin with /fish, picked from autocomplete; False once the game is over."""
        assert self.board is not None
        if "**Final standings**" in self.board.content:
            return False
        ping = TURN_PING.search(self.board.content)
        assert ping, self.board.content
        player = next(p for p in self.players if p.id == int(ping.group(1)))
        if "places a penguin" in self.board.content:
            tile = self.rng.choice(await self.choices(player, "/fish place tile:"))
            action = f"/fish place tile:{tile}"
        else:
            start = self.rng.choice(await self.choices(player, "/fish move from:"))
            end = self.rng.choice(await self.choices(player, f"/fish move from:{start} to:"))
            action = f"/fish move from:{start} to:{end}"
        self.board = await self.move(self.slash(player, action))
        return self.board is not None

    async def tank_turn(self) -> bool:
        """Split, take (slash command or the board's menu) or answer a Gourami (command or DM menu)."""
        read = await self.state()
        if read is None:
            return False
        game, state = read
        player = self.players[game.to_act(state)[0]]
        menus = self.rng.random() < 0.5
        if state.phase == "split":
            group = self.rng.choice(await self.choices(player, "/tank split group:"))
            line = self.rng.choice(await self.choices(player, f"/tank split group:{group} line:"))
            await self.move(self.slash(player, f"/tank split group:{group} line:{line}"))
        elif state.phase == "take" and menus:
            board = self.current_board()
            menu = board.find_component(placeholder="Take a group…")
            group = self.rng.choice([o["value"] for o in menu["options"]])
            await self.move(self.driver.select(player, board, [group], custom_id=menu["custom_id"]))
        elif state.phase == "take":
            group = self.rng.choice(await self.choices(player, "/tank take group:"))
            await self.move(self.slash(player, f"/tank take group:{group}"))
        elif menus and (dm := self.gourami_dm(player)) is not None:
            menu = next(c for c in dm.interactive_components() if c.get("type") == 3)
            choice = self.rng.choice([o["value"] for o in menu["options"]])
            await self.move(self.driver.select(player, dm, [choice], custom_id=menu["custom_id"]))
        else:
            choice = self.rng.choice(await self.choices(player, "/tank discard card:"))
            await self.move(self.slash(player, f"/tank discard card:{choice}"), private=True)
        return True

    def gourami_dm(self, player: FakeUser) -> FakeMessage | None:
        """Return the newest DM offering the player a live menu (the Gourami choice), if any."""
        for message in reversed(self.driver.dm_messages(player)):
            if any(c.get("type") == 3 and not c.get("disabled") for c in message.interactive_components()):
                return message
        return None

    async def flippers_turn(self) -> bool:
        """Place a Leader (command or board menu), discard, play a card or activate one, as the game asks."""
        read = await self.state()
        if read is None:
            return False
        game, state = read
        seat = state.current if state.phase == "play" else game.to_act(state)[0]
        player = self.players[seat]
        if state.phase == "leaders":
            cell = self.rng.choice(await self.choices(player, "/flippers leader cell:"))
            board = self.current_board()
            menus = [c for c in board.interactive_components() if c.get("placeholder", "").endswith("Leader…")]
            if menus and self.rng.random() < 0.5:
                await self.move(self.driver.select(player, board, [cell], custom_id=menus[0]["custom_id"]))
            else:  # a Leader placed mid-turn edits the turn's board: the command is answered privately
                await self.move(self.slash(player, f"/flippers leader cell:{cell}"), private=True)
        elif state.phase == "setup":
            cards = self.rng.choice(await self.choices(player, "/flippers discard cards:"))
            await self.move(self.slash(player, f"/flippers discard cards:{cards}"), private=True)
        elif state.played is None:
            card = self.rng.choice(await self.choices(player, "/flippers play card:"))
            cell = self.rng.choice(await self.choices(player, f"/flippers play card:{card} cell:"))
            facing = self.rng.choice(await self.choices(player, f"/flippers play card:{card} cell:{cell} facing:"))
            await self.move(self.slash(player, f"/flippers play card:{card} cell:{cell} facing:{facing}"), private=True)
        else:
            card = self.rng.choice(await self.choices(player, "/flippers activate card:"))
            await self.move(self.slash(player, f"/flippers activate card:{card}"), private=True)
        return True
