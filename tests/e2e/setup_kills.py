"""Start Flippers games against a bot in a child process, SIGKILL it during set-up, and check each channel's board.

Used by tests/e2e/test_setup_kills.py (a few games) and bench/setup_kills.py (as many as asked). Each game
has 2-6 players and a chosen deal seed (777 among them). Its host sends /game start, then the players place
their Leaders and make their set-up discards by slash commands, as the saved game asks. Before each command
the bot may be armed to die: at the n-th request it sends after the command (that request reaching Discord or
not), or after a random delay. After each restart, and once set-up is over, the channel must show exactly one
board picture (set-up edits one board in place), naming every Leader the game placed, and exactly one live board
(a message whose menus for the game are not greyed out; the lobby's are version 0), the newest board in the
channel, at the saved version; a second picture, a picture behind the game, a board left live above the
newest one, or a newest board at an older version, is a problem. So is a turn ping left standing once set-up
is over (the first turn's board pings by itself). During set-up a restart may find a second ping, one the killed
bot posted but never recorded, until the next ping deletes it: those are listed as stale pings.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.flippers.state import LEADERS, SETUP
from engine.registry import get
from tests.e2e.child_bot import KillRun
from tests.e2e.crash_run import board_version
from tests.harness import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.harness.models import iter_components
from tests.harness.rest import Call

PING = "it's your turn."
SEEDS = (777, 1, 2, 3, 500, 506, 4242, 31337)


@dataclass
class KillReport:
    """What a set-up kill run did and found."""

    games: int = 0
    commands: int = 0
    kills: int = 0
    kills_at_a_request: int = 0
    kills_after_a_delay: int = 0
    checks: int = 0
    stale_pings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def live_ids(message: FakeMessage, game_id: int) -> list[str]:
    """Return the custom_ids of a message's menus for a game that are not greyed out."""
    prefix = f"floe:{game_id}:"
    return [
        str(c.get("custom_id"))
        for c in iter_components(message.components)
        if str(c.get("custom_id") or "").startswith(prefix) and not c.get("disabled")
    ]


class SetupKills(KillRun):
    """Open Flippers games one at a time in fresh channels and kill the bot during their set-up."""

    def __init__(self, fake: FakeDiscord, folder: Path, rng: random.Random, *, kill_chance: float = 0.5) -> None:
        super().__init__(fake, folder, "kills.db")
        self.rng = rng
        self.kill_chance = kill_chance
        self.seed_file = folder / "seed"
        self.report = KillReport()
        self.players = [self.driver.user(f"p{n}") for n in range(6)]
        self._armed: int | None = None
        self._lands = True

    async def _on_request(self, call: Call) -> tuple[int, Any] | None:
        """Kill the bot at the armed request (letting it reach Discord or not)."""
        if self._armed is None:
            return None
        self._armed -= 1
        if self._armed > 0:
            return None
        self._armed = None
        self.bot.kill()
        self.report.kills_at_a_request += 1
        return None if self._lands else (500, {"code": 0, "message": "the bot died"})

    # -- the saved game ---------------------------------------------------------------------------------

    def saved(self, channel: FakeChannel) -> sqlite3.Row | None:
        """Return the newest game's row in a channel."""
        rows = self._query("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel.id,))
        return rows[0] if rows else None

    def leaders(self, game_id: int) -> int:
        """Return how many Leaders a game's log has placed."""
        rows = self._query("SELECT action FROM actions WHERE game_id = ?", (game_id,))
        return sum(1 for r in rows if json.loads(r["action"]).get("type") == "leader")

    # -- playing ----------------------------------------------------------------------------------------------

    async def run(self, games: int) -> KillReport:
        """Play the set-up of `games` games, killing the bot now and then; check after each restart."""
        await self.bot.start(seed_file=self.seed_file)
        for n in range(games):
            await self.one_game(n)
        return self.report

    async def one_game(self, n: int) -> None:
        """Open one game with 2-6 players and a chosen seed, start it and play its set-up under kills."""
        seed = SEEDS[n % len(SEEDS)] if n < len(SEEDS) else self.rng.randrange(1, 10**6)
        people = self.players[: 2 + (n + self.rng.randrange(5)) % 5]
        self.seed_file.write_text(str(seed))
        channel = self.fake.add_text_channel(self.fake.guild, f"setup-{n}")
        self.report.games += 1
        await self.driver.slash(people[0], "/game new game:flippers", channel=channel).answered()
        for player in people[1:]:
            await self.driver.slash(player, "/game join", channel=channel).answered()
        for _ in range(40):
            row = self.saved(channel)
            assert row is not None
            if row["status"] == "lobby":  # killed before the start was saved: the host starts again
                await self.send(people[0], "/game start", channel)
                continue
            state = get("flippers").load(json.loads(row["state"]))
            if row["status"] != "active" or state.phase not in (LEADERS, SETUP):
                break
            move = await self.next_move(people, channel, state)
            if move is not None:
                await self.send(*move, channel)
        await self.check(channel, f"game {n} (seed {seed}, {len(people)} players) after its set-up")

    async def next_move(self, people: list[FakeUser], channel: FakeChannel, state: Any) -> tuple[FakeUser, str] | None:
        """Return a player to act and a legal set-up command, as autocomplete offers it."""
        option = "/flippers leader cell:" if state.phase == LEADERS else "/flippers discard cards:"
        for seat in get("flippers").to_act(state):
            offered = await self.driver.autocomplete(people[seat], option, channel=channel)
            if offered:
                return people[seat], f"{option}{self.rng.choice(offered)['value']}"
        return None

    async def send(self, user: FakeUser, command: str, channel: FakeChannel) -> None:
        """Send a command; maybe kill the bot at a request it makes or after a delay, then restart and check."""
        self.report.commands += 1
        chance = self.rng.random()
        mode = None if chance >= self.kill_chance else "delay" if chance < self.kill_chance / 4 else "request"
        if mode == "request":
            self._armed, self._lands = self.rng.randint(1, 8), self.rng.random() < 0.5
        sent = self.driver.slash(user, command, channel=channel)
        if mode == "delay":
            await asyncio.sleep(self.rng.uniform(0, 0.4))
            self.bot.kill()
            self.report.kills_after_a_delay += 1
        if mode is None:
            await sent.answered()
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.bot.wait(), 5)  # an armed request may never come: the command ended first
        self._armed = None
        if self.bot.process is not None and self.bot.process.returncode is None:
            await sent.answered()  # the command was over before its armed request
            return
        self.report.kills += 1
        await self.bot.start(seed_file=self.seed_file)
        await self.check(channel, f"after kill {self.report.kills} ({command})")

    # -- checking ---------------------------------------------------------------------------------------------

    async def check(self, channel: FakeChannel, when: str) -> None:
        """Check the channel shows one live board for its game, the newest one, at the saved version.

        Also count the turn pings left standing: one at most during set-up, none once it is over.
        """
        self.report.checks += 1

        def posted() -> bool:
            row = self.saved(channel)
            return row is None or row["status"] not in ("active", "finished") or row["posted_version"] >= row["version"]

        try:  # a secret move's public board follows its private note, once drawn
            await self.driver.wait_until(posted, "the saved version's board", within=30)
        except AssertionError:
            self.report.problems.append(f"{channel.name} {when}: the saved version's board was not posted in 30 s")
        await self.driver.idle(quiet=0.3, within=30, tasks=False)
        row = self.saved(channel)
        if row is None or row["status"] not in ("active", "finished"):
            return
        game_id = row["id"]
        where = f"game {game_id} {when}"
        shown = self.driver.messages(channel)
        pings = [m for m in shown if not m.attachments and not m.components and PING in m.content]
        in_setup = get("flippers").load(json.loads(row["state"])).phase in (LEADERS, SETUP)
        if len(pings) > in_setup:
            listed = [(m.id, m.content.replace("\n", " / ")[:90]) for m in pings]
            (self.report.stale_pings if in_setup else self.report.problems).append(
                f"{where}: {len(pings)} turn pings standing {listed}"
            )
        pictures = [m for m in self.driver.messages(channel) if m.attachments and not m.deleted]
        if len(pictures) != 1:  # set-up is one board edited in place; the first turn's board adds no picture
            shown = [(m.id, m.content.splitlines()[-1][:60] if m.content else "") for m in pictures]
            self.report.problems.append(f"{where}: {len(pictures)} board pictures {shown}")
        elif (placed := pictures[0].content.count(" placed their Leader")) != (logged := self.leaders(game_id)):
            self.report.problems.append(f"{where}: the board names {placed} Leaders placed, the game {logged}")
        boards = [m for m in self.driver.messages(channel) if not m.deleted and (board_version(m) or 0) > 0]
        live = [m for m in boards if live_ids(m, game_id)]
        if len(live) != 1:
            shown = [(m.id, board_version(m), m.content.splitlines()[-1][:50] if m.content else "") for m in live]
            self.report.problems.append(f"{where}: {len(live)} live boards {shown}")
            return
        if boards[-1] is not live[0]:
            self.report.problems.append(f"{where}: the live board is not the newest board in the channel")
        shown_version = board_version(live[0])
        if shown_version != row["version"]:
            self.report.problems.append(
                f"{where}: the live board shows version {shown_version}, saved {row['version']}, "
                f"recorded as posted {row['posted_version']}"
            )
