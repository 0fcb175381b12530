"""Play games against a bot in a child process that is SIGKILLed at random points, and check nothing is lost.

Used by tests/e2e/test_crash.py (about 100 acknowledged moves) and bench/crash_soak.py (as many as asked).
Players pick legal moves from the saved game and send them as slash commands. Now and then the bot is killed:
after a random delay, or exactly when it sends the new board (the move is saved, its board is not posted).
After each restart, and at the end, the checks are: every acknowledged move (its board was shown to the
player) is in the action log with the same action, each game's log replays to its saved state, and the
newest board in each game's channel shows its saved version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.registry import get
from engine.replay import replay
from tests.e2e.child_bot import KillRun, alive, children_of
from tests.harness import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.harness.models import iter_components
from tests.harness.rest import Call

FOLLOWUP = "/webhooks/{application_id}/{token}"


@dataclass
class CrashReport:
    """What a crash run did and found."""

    acknowledged: int = 0
    kills: int = 0
    kills_between_commit_and_post: int = 0
    restarts_with_boards_to_post: int = 0
    boards_posted_after_restart: int = 0
    answers_completed_after_restart: int = 0
    """"thinking…" placeholders of acknowledged moves the killed bot left, completed by the next one."""
    leaked_processes: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class Ack:
    """A move the player saw applied: its board showed the version the move made."""

    game_id: int
    version: int
    action: dict[str, Any]


def board_version(message: FakeMessage) -> int | None:
    """Return the state version a board message's components carry (floe:<game>:<version>:<token>)."""
    for component in iter_components(message.components):
        custom_id = str(component.get("custom_id") or "")
        if custom_id.startswith("floe:"):
            return int(custom_id.split(":")[2])
    return None


class CrashRun(KillRun):
    """Play fish games in several channels while killing the bot, and check what survived."""

    def __init__(self, fake: FakeDiscord, folder: Path, rng: random.Random, *, games: int = 4) -> None:
        super().__init__(fake, folder, "crash.db")
        self.folder = folder
        self.rng = rng
        self.report = CrashReport()
        self.acks: list[Ack] = []
        self.players = [self.driver.user(f"player{n}") for n in range(2 * games)]
        self.channels = [fake.add_text_channel(fake.guild, f"table-{n}") for n in range(games)]
        self.game_ids: dict[int, int] = {}
        self.kill_on_post = False

    async def _on_request(self, call: Call) -> tuple[int, Any] | None:
        """Kill the bot when it sends a board (the move is saved, the board not posted) if armed to."""
        if self.kill_on_post and call.method == "POST" and call.route == FOLLOWUP and call.files:
            self.kill_on_post = False
            self.bot.kill()
            self.report.kills_between_commit_and_post += 1
            return 500, {"code": 0, "message": "the bot died"}
        return None

    # -- reading the saved games --------------------------------------------------------------------------

    def saved(self, game_id: int) -> sqlite3.Row:
        """Return a game's saved row."""
        return self._query("SELECT * FROM games WHERE id = ?", (game_id,))[0]

    def logged(self, game_id: int) -> list[dict[str, Any]]:
        """Return a game's action log."""
        rows = self._query("SELECT version, seat, action FROM actions WHERE game_id = ? ORDER BY version", (game_id,))
        return [{"version": r["version"], "seat": r["seat"], "action": json.loads(r["action"])} for r in rows]

    # -- playing --------------------------------------------------------------------------------------------

    async def open_games(self) -> None:
        """Open a two-player fish game in each channel."""
        for n, channel in enumerate(self.channels):
            host, guest = self.players[2 * n], self.players[2 * n + 1]
            before = self._newest(channel)
            for user, command in ((host, "/game new game:fish"), (guest, "/game join"), (host, "/game start")):
                await self.driver.slash(user, command, channel=channel).answered()
            await self.driver.wait_until(lambda c=channel, b=before: self._newest(c) is not b, "the first board")
            rows = self._query("SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel.id,))
            self.game_ids[channel.id] = rows[0]["id"]

    def _newest(self, channel: FakeChannel) -> FakeMessage | None:
        """Return the newest board in a channel."""
        boards = [m for m in self.driver.messages(channel) if m.attachments]
        return boards[-1] if boards else None

    def next_move(self, channel: FakeChannel) -> tuple[FakeUser, str, dict[str, Any]] | None:
        """Return the player to act in a channel's game, a slash command and the action, or None at the end."""
        row = self.saved(self.game_ids[channel.id])
        if row["status"] != "active":
            return None
        game = get("fish")
        state = game.load(json.loads(row["state"]))
        seat = game.to_act(state)[0]
        action = self.rng.choice(game.legal_actions(state, seat))
        index = self.channels.index(channel)
        player = self.players[2 * index + seat]
        if action["type"] == "place":
            return player, f"/fish place tile:{action['tile']}", action
        return player, f"/fish move from:{action['from']} to:{action['to']}", action

    async def run(self, moves: int, *, kill_chance: float = 0.08, first_workers: str = "thread") -> CrashReport:
        """Play until `moves` moves were acknowledged, killing the bot now and then; check after each restart."""
        await self.bot.start(first_workers)
        workers_checked = first_workers != "process"
        children: list[int] = []
        for _ in range(600):
            if workers_checked or len(children := children_of(self.bot.pid)) >= 3:
                break  # two render workers and the resource tracker
            await asyncio.sleep(0.05)
        await self.open_games()
        while self.report.acknowledged < moves:
            playing = [c for c in self.channels if self.saved(self.game_ids[c.id])["status"] == "active"]
            if not playing:
                await self._new_round()
                continue
            channel = self.rng.choice(playing)
            move = self.next_move(channel)
            if move is None:
                continue
            player, command, action = move
            chance = self.rng.random()
            mode = "delay" if chance < kill_chance / 2 else "post" if chance < kill_chance else None
            self.kill_on_post = mode == "post"
            sent = self.driver.slash(player, command, channel=channel)
            if mode == "delay":
                await asyncio.sleep(self.rng.uniform(0, 0.15))
                self.bot.kill()
            if mode is None:
                await sent.answered()
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.bot.wait(), 5)
                self.bot.kill()
                await self.bot.wait()
            self.kill_on_post = False
            self._note_ack(sent, channel, action)
            if mode is not None:
                self.report.kills += 1
                if not workers_checked:
                    workers_checked = True
                    await self._check_gone(children)
                await self._restart()
        await self.check()
        return self.report

    def _note_ack(self, sent: Any, channel: FakeChannel, action: dict[str, Any]) -> None:
        """Record the move as acknowledged if its board reached the player."""
        for message in sent.messages:
            version = board_version(message) if message.attachments and not message.deleted else None
            if version is not None:
                self.acks.append(Ack(self.game_ids[channel.id], version, action))
                self.report.acknowledged += 1
                return

    async def _new_round(self) -> None:
        """Open new games in the channels whose games ended."""
        self.game_ids.clear()
        await self.open_games()

    async def _check_gone(self, children: list[int]) -> None:
        """Check the killed bot's worker processes (and resource tracker) exit by themselves."""
        for _ in range(200):
            if not [pid for pid in children if alive(pid)]:
                return
            await asyncio.sleep(0.05)
        self.report.leaked_processes += [pid for pid in children if alive(pid)]
        for pid in self.report.leaked_processes:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    async def _restart(self) -> None:
        """Start the bot again and check every game's newest board is posted once it has caught up."""
        owed = [gid for gid in self.game_ids.values() if self._owed(gid)]
        if owed:
            self.report.restarts_with_boards_to_post += 1
        await self.bot.start()
        self.report.boards_posted_after_restart += sum(1 for gid in owed if not self._owed(gid))
        await self.check_boards()
        await self.check_answers()

    def _thinking(self) -> list[FakeMessage]:
        """Return the placeholders still "thinking…" in the game channels."""
        return [m for c in self.channels for m in self.driver.messages(c) if m.loading and not m.deleted]

    async def check_answers(self) -> None:
        """Check every placeholder the killed bot left is completed by the restarted one, soon."""
        waiting = self._thinking()
        try:
            await self.driver.wait_until(lambda: not self._thinking(), "every placeholder completed", within=20)
        except AssertionError:
            self.report.problems.append(f"{len(self._thinking())} placeholder(s) still thinking after a restart")
        self.report.answers_completed_after_restart += len(waiting)
        for message in waiting:
            if not message.content.startswith(("Your move was saved.", "Your move was not applied")):
                self.report.problems.append(f"a placeholder was completed with {message.content[:80]!r}")

    def _owed(self, game_id: int) -> bool:
        """Tell whether a game's saved version has no posted board."""
        row = self.saved(game_id)
        return row["status"] in ("active", "finished") and row["posted_version"] < row["version"]

    # -- checking ---------------------------------------------------------------------------------------------

    async def check_boards(self) -> None:
        """Check the newest board in every channel shows its game's saved version."""
        for channel in self.channels:
            game_id = self.game_ids[channel.id]
            row = self.saved(game_id)
            newest = self._newest(channel)
            shown = None if newest is None else board_version(newest)
            if shown != row["version"]:
                self.report.problems.append(f"game {game_id}: saved version {row['version']}, newest board {shown}")

    async def check(self) -> None:
        """Check the acknowledged moves, the replays and the boards."""
        await self.check_boards()
        logs: dict[int, dict[int, dict[str, Any]]] = {}
        for ack in self.acks:
            if ack.game_id not in logs:
                logs[ack.game_id] = {e["version"]: e["action"] for e in self.logged(ack.game_id)}
            if logs[ack.game_id].get(ack.version) != ack.action:
                self.report.problems.append(
                    f"game {ack.game_id} v{ack.version}: acknowledged {ack.action}, logged "
                    f"{logs[ack.game_id].get(ack.version)}"
                )
        for row in self._query("SELECT * FROM games WHERE status IN ('active', 'finished')"):
            game = get(row["kind"])
            seats = self._query("SELECT COUNT(*) AS n FROM seats WHERE game_id = ?", (row["id"],))[0]["n"]
            *_, state = replay(game, seats, json.loads(row["options"]), row["seed"], self.logged(row["id"]))
            if game.dump(state) != json.loads(row["state"]):
                self.report.problems.append(f"game {row['id']}: its log does not replay to its saved state")
