"""Measure Ice Floe's answer latency with 1, 50, 100 and 200 concurrent games of all three kinds.

Run from the repository root:  .venv/bin/python -m bench.latency [--levels 1,50,100,200] [--saved 0,1000,10000]
[--kinds fish,tank,flippers] [--turns 12] [--think 2.0] [--runs paced,closed] [--setups sqlite,postgres]

Games of the chosen kinds are opened in turn (fish, tank, flippers, fish, ...) with 2, 3 and 4 players in turn,
and played as people play them: slash commands with their arguments picked from the bot's autocomplete, the
board's select menus (10 Gallon Tank takes, Flippers Leaders) and the Gourami menu in a Tank player's DMs. Who
acts next is read from the game's saved state (the bot's database, read-only), as a player reads the table.

--saved N fills the bot's database before it starts with N saved games (bench/seed.py: engine-played games of
all three kinds, 2-4 players, 70% finished with results, the rest mid- or late-game, with their action logs,
over 97 servers and N channels); a comma-separated list measures every level on each. The quick default is
--saved 0, paced; the full matrix (--saved 0,1000,10000) takes about 15 minutes on a busy 2-core machine.

--setups sqlite,postgres measures, level by level, one bot process on SQLite beside two bot processes (one
shard each) sharing a throwaway PostgreSQL server started for the run (tests/postgres.py; needs PostgreSQL
in /usr/lib/postgresql), e.g.  --levels 50,200 --setups sqlite,postgres; saved games are copied into it with
storage.copy.

The fake Discord of tests/harness and the simulated players run in this process; the real bot (create_bot,
real discord.py) runs in a child process (bench/bot_process.py) that connects to the fake on 127.0.0.1, so
the figures are the bot's, not the harness's. Latencies are the fake's own records: from the moment it sent
the interaction to the moment the bot's acknowledgement or visible answer reached it. The bot process watches
its own event loop for stalls and reports them, with its CPU time and garbage collection pauses.

Runs per level (--runs, default paced):
  paced        players think between actions, --think seconds on average (uniformly 0.5x-1.5x), plus a
               quarter of that while typing between autocomplete requests, and the games open at random
               within --stagger seconds: that many games being played at once;
  closed loop  every player fires its next request the instant the previous answer arrives (stress: the
               figures then measure how many commands per second the bot can take on this machine).

--in-process runs the bot in this process and event loop instead, as the first version of this benchmark
did (its stall figure then includes the harness). --profile DIR writes cProfile stats of the bot process
(event loop, and to_thread workers in FILE.threads) for each level and prints the top functions; --stacks
samples where the bot's event-loop thread was whenever it was late by more than 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import math
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bot_process import PREFIX, Report, StallSampler
from bench.seed import seed
from engine.registry import get
from storage.copy import copy
from tests.harness import (
    Driver,
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

TURN_PING = re.compile(r"<@(\d+)>, it's your turn\.")
ROOT = Path(__file__).resolve().parent.parent
ANSWER_TIMEOUT = 30.0


@dataclass
class Samples:
    """Latencies (seconds) and what went wrong during one level."""

    ack: list[float] = field(default_factory=list)
    answer: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    """Moves only: from injection until the channel shows the board the move made."""
    autocomplete: list[float] = field(default_factory=list)
    harness_stall: float = 0.0
    harness_gc: float = 0.0
    """The harness's longest garbage collection pause (it keeps every message and picture it was sent)."""
    harness_cpu: float = 0.0
    late: int = 0
    timeouts: int = 0
    turns: int = 0
    abandoned: int = 0
    refusals: list[str] = field(default_factory=list)
    harness_stacks: list[tuple[float, str]] = field(default_factory=list)
    bot: Report = field(default_factory=Report)


class Refused(Exception):
    """The bot refused a game command (or Discord refused its answer), so that game cannot go on."""


class BenchDiscord(FakeDiscord):
    """The harness's fake Discord, waking each waiting player alone when its interaction is answered."""

    def __init__(self) -> None:
        self.waiting: dict[int, tuple[FakeInteraction, asyncio.Future[None]]] = {}
        self.watching: list[tuple[Callable[[], bool], asyncio.Future[float]]] = []
        super().__init__()

    def notify(self) -> None:
        """Wake everyone waiting for a state change, and the players whose interaction is settled."""
        super().notify()
        if self.waiting:
            for key, (ix, future) in list(self.waiting.items()):
                if settled(ix):
                    del self.waiting[key]
                    if not future.done():
                        future.set_result(None)
        if self.watching:
            now = asyncio.get_running_loop().time()
            for entry in list(self.watching):
                predicate, seen = entry
                if seen.done() or predicate():
                    self.watching.remove(entry)
                    if not seen.done():
                        seen.set_result(now)

    async def until(self, predicate: Callable[[], bool], within: float = ANSWER_TIMEOUT) -> float:
        """Wait until something the fake shows makes `predicate` true; return the loop time it became true."""
        loop = asyncio.get_running_loop()
        if predicate():
            return loop.time()
        seen: asyncio.Future[float] = loop.create_future()
        entry = (predicate, seen)
        self.watching.append(entry)
        try:
            async with asyncio.timeout(within):
                return await seen
        finally:
            if entry in self.watching:
                self.watching.remove(entry)

    async def settled(self, ix: FakeInteraction, within: float = ANSWER_TIMEOUT) -> None:
        """Wait until the user sees an answer to an interaction, or Discord refused the bot's answer."""
        if settled(ix):
            return
        future = asyncio.get_running_loop().create_future()
        self.waiting[ix.id] = (ix, future)
        try:
            async with asyncio.timeout(within):
                await future
        finally:
            self.waiting.pop(ix.id, None)


def settled(ix: FakeInteraction) -> bool:
    """Tell whether the user sees an answer to an interaction (the fake stamps answered_at), or it was refused."""
    return ix.answered_at is not None or (bool(ix.rejections) and ix.callback_type is None)


def percentile(values: list[float], fraction: float) -> float:
    """Return the nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def ms(value: float) -> str:
    """Format seconds as milliseconds."""
    return f"{value * 1000:8.1f}"


async def watch_stalls(samples: Samples, interval: float = 0.005, sampler: StallSampler | None = None) -> None:
    """Record the longest time this process's event loop was blocked beyond a short sleep."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        if sampler is not None:
            sampler.beat = time.monotonic()
        await asyncio.sleep(interval)
        if sampler is not None:
            sampler.beat = time.monotonic()
        samples.harness_stall = max(samples.harness_stall, loop.time() - started - interval)


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


class HarnessGc:
    """Time this process's garbage collections while a level runs."""

    def __init__(self, samples: Samples) -> None:
        self.samples = samples
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        """Note when a collection starts and, when it stops, keep the longest."""
        if phase == "start":
            self.started = time.perf_counter()
        elif self.started:
            self.samples.harness_gc = max(self.samples.harness_gc, time.perf_counter() - self.started)


class StateReader:
    """Read a channel's open game state from the bot's database (a SQLite file read-only, or PostgreSQL).

    SQLite reads run on one thread of their own, with one connection: a reader that meets the bot's write
    lock waits there (SQLite's busy handler sleeps), not in this process's event loop, where it would delay
    every timestamp the fake takes.
    """

    SQL = "SELECT state FROM games WHERE channel_id = {} AND status IN ('lobby', 'active')"

    def __init__(self, database: str) -> None:
        self.database = database
        self.pool: Any = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-state")
        self.conn: sqlite3.Connection | None = None

    async def __aenter__(self) -> StateReader:
        """Connect to PostgreSQL if that is where the bot saves."""
        if "://" in self.database:
            import asyncpg

            url, _, schema = self.database.partition("?search_path=")
            settings = {"search_path": schema} if schema else {}
            self.pool = await asyncpg.create_pool(url, min_size=1, max_size=4, server_settings=settings)
        return self

    async def __aexit__(self, *_: object) -> None:
        """Close the PostgreSQL pool or the SQLite connection."""
        if self.pool is not None:
            await self.pool.close()
        if self.conn is not None:
            await asyncio.get_running_loop().run_in_executor(self.thread, self.conn.close)
        self.thread.shutdown()

    async def state(self, channel_id: int) -> str | None:
        """Return the saved state JSON of the channel's open game, or None."""
        if self.pool is not None:
            return await self.pool.fetchval(self.SQL.format("$1"), channel_id)
        return await asyncio.get_running_loop().run_in_executor(self.thread, self._read, channel_id)

    def _read(self, channel_id: int) -> str | None:
        """Read one state on the reader thread."""
        if self.conn is None:
            self.conn = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5, check_same_thread=False)
        row = self.conn.execute(self.SQL.format("?"), (channel_id,)).fetchone()
        return None if row is None else row[0]


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
        seen = await self.fake.until(lambda: self.board_signature() != before)
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
            else:
                await self.move(self.slash(player, f"/flippers leader cell:{cell}"))
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


class BotProcess:
    """The bot in a child process (bench.bot_process), driven over its stdin and stdout."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls,
        fake: FakeDiscord,
        folder: Path,
        profile: Path | None,
        stacks: bool,
        *,
        database: str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> AsyncIterator[BotProcess]:
        """Start the bot process against the fake, wait until it is ready, and kill it on the way out.

        `database` is a DATABASE_URL (default: a SQLite file in `folder`); with `shard` = (id, count) the
        process runs that one shard and commands are synced globally (by shard 0's process).
        """
        log = folder / (f"bot-shard{shard[0]}.log" if shard else "bot.log")
        guild = 0 if shard else fake.guild.id
        arguments = [
            *("--api", fake.api_base, "--gateway", fake.ws_url + "/", "--cdn", fake.base_url),
            *("--token", fake.token, "--guild", str(guild), "--database", database or str(folder / "bench.db")),
            *(("--shard", str(shard[0]), "--shards", str(shard[1])) if shard else ()),
            *(("--profile", str(profile)) if profile else ()),
            *(("--stacks",) if stacks else ()),
        ]
        with log.open("wb") as stderr:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.bot_process",
                *arguments,
                cwd=ROOT,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
            )
        bot = cls(process, log)
        try:
            await bot.expect("ready", within=600)
            yield bot
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()

    async def expect(self, word: str, *, within: float) -> str:
        """Return the rest of the bot process's next protocol line, which must start with `word`."""
        assert self.process.stdout is not None
        async with asyncio.timeout(within):
            while raw := await self.process.stdout.readline():
                line = raw.decode().strip()
                if line.startswith(f"{PREFIX} {word}"):
                    return line.removeprefix(f"{PREFIX} {word}").strip()
        tail = self.log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"the bot process ended without saying {word!r}; its log ends:\n{tail}")

    def send(self, line: str) -> None:
        """Send one protocol line."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())

    async def begin(self) -> None:
        """Open the measured window in the bot process."""
        self.send("start")

    async def end(self) -> Report:
        """Close the window, collect the bot's report and let it shut down."""
        self.send("stop")
        report = Report(**json.loads(await self.expect("report", within=60)))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(15):
                await self.process.wait()
        return report


class BotProcesses:
    """Several bot processes, one shard each, on one PostgreSQL database, measured together."""

    def __init__(self, bots: list[BotProcess]) -> None:
        self.bots = bots

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls, fake: FakeDiscord, folder: Path, database: str, count: int) -> AsyncIterator[BotProcesses]:
        """Start `count` shard processes on one database and stop them all on the way out."""
        async with contextlib.AsyncExitStack() as stack:
            bots = await asyncio.gather(
                *(
                    stack.enter_async_context(
                        BotProcess.running(fake, folder, None, False, database=database, shard=(n, count))
                    )
                    for n in range(count)
                )
            )
            yield cls(list(bots))

    async def begin(self) -> None:
        """Open every process's measured window."""
        for bot in self.bots:
            await bot.begin()

    async def end(self) -> Report:
        """Close every window and merge the reports: worst stalls and pauses, summed CPU and errors."""
        reports = await asyncio.gather(*(bot.end() for bot in self.bots))
        merged = Report()
        for name in ("stall", "busy_stall", "window", "gc_pause"):
            setattr(merged, name, max(getattr(r, name) for r in reports))
        for name in ("stalls_over_limit", "cpu", "loop_cpu", "idle_cpu", "idle_loop_cpu", "gc_total", "errors"):
            setattr(merged, name, sum(getattr(r, name) for r in reports))
        merged.error_lines = [line for r in reports for line in r.error_lines]
        return merged


class BotInProcess:
    """The bot in this process and event loop (the first version of this benchmark)."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.samples = Samples()
        self.watcher: asyncio.Task[None] | None = None
        self.cpu = self.started = 0.0

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls, fake: FakeDiscord, folder: Path, driver: Driver) -> AsyncIterator[BotInProcess]:
        """Start the bot in this event loop and stop it on the way out."""
        from bot import create_bot
        from config import Settings

        settings = Settings(
            token=fake.token, database_url=f"sqlite:///{folder / 'bench.db'}", dev_guild_id=fake.guild.id
        )
        driver.capture_errors()
        await driver.start_bot(create_bot(settings, guild_ready_timeout=0.05))
        try:
            yield cls(driver)
        finally:
            await driver.stop_all()
            driver.release_errors()

    async def begin(self) -> None:
        """Start watching the shared event loop."""
        self.cpu, self.started = time.process_time(), time.monotonic()
        self.watcher = asyncio.create_task(watch_stalls(self.samples))

    async def end(self) -> Report:
        """Stop watching and report the shared loop's longest stall."""
        assert self.watcher is not None
        self.watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.watcher
        errors = self.driver.take_bot_errors()
        return Report(
            stall=self.samples.harness_stall,
            window=time.monotonic() - self.started,
            cpu=time.process_time() - self.cpu,
            errors=len(errors),
            error_lines=[record.getMessage()[:300] for record in errors[:5]],
        )


async def run_level(
    games: int,
    turns: int,
    think: float,
    *,
    stagger: float = 0.0,
    in_process: bool = False,
    profile: Path | None = None,
    stacks: bool = False,
    kinds: tuple[str, ...] = KINDS,
    saved: Path | None = None,
    postgres: str | None = None,
    processes: int = 2,
) -> Samples:
    """Play `games` games at once against a fresh fake Discord and bot, on a copy of the `saved` database.

    With `postgres` (a DATABASE_URL) the bot runs as `processes` shard processes sharing that database, and
    the games are spread over one server per shard.
    """
    samples = Samples()
    with tempfile.TemporaryDirectory(prefix="ice-floe-bench-") as tmp:
        database = Path(tmp) / "bench.db"
        if saved is not None and postgres:
            await copy(f"sqlite:///{saved}", postgres)
        elif saved is not None:
            shutil.copyfile(saved, database)
        async with BenchDiscord() as fake:
            guilds = [fake.guild]
            if postgres:
                fake.recommended_shards = processes
                guilds = [fake.add_guild(f"bench shard {n}", shard=(n, processes)) for n in range(processes)]
            homes = [guilds[n % len(guilds)] for n in range(games)]
            channels = [fake.add_text_channel(home, f"bench-{n}") for n, home in enumerate(homes)]
            driver = Driver(fake, timeout=ANSWER_TIMEOUT)
            if postgres:
                bot_context: Any = BotProcesses.running(fake, Path(tmp), postgres, processes)
            elif in_process:
                bot_context = BotInProcess.running(fake, Path(tmp), driver)
            else:
                bot_context = BotProcess.running(fake, Path(tmp), profile, stacks)
            reader = StateReader(postgres or str(database))
            async with bot_context as bot, reader:
                tables = []
                for n, (channel, home) in enumerate(zip(channels, homes, strict=True)):
                    kind, seated = seating(n, kinds)
                    players = [driver.user(f"p{n}{chr(97 + k)}", guild=home) for k in range(seated)]
                    pacer = Pacer(random.Random(n), think, stagger)
                    tables.append(Table(fake, driver, channel, players, kind, samples, pacer, reader))
                sampler = StallSampler() if stacks else None
                if sampler is not None:
                    sampler.start()
                    sampler.active = True
                watcher = asyncio.create_task(watch_stalls(samples, sampler=sampler))
                gc_timer = HarnessGc(samples)
                gc.callbacks.append(gc_timer)
                # The harness keeps every message, version and picture: a full collection of that takes 100+ ms
                # at 200 games, a stall that would be counted against the bot. Collect once the level is over.
                gc.freeze()
                gc.disable()
                cpu = time.process_time()
                await bot.begin()
                try:
                    await asyncio.gather(*(table.play(turns) for table in tables))
                finally:
                    samples.harness_cpu = time.process_time() - cpu
                    gc.enable()
                    gc.unfreeze()
                    gc.callbacks.remove(gc_timer)
                    samples.bot = await bot.end()
                    watcher.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await watcher
                    if sampler is not None:
                        sampler.finished.set()
                        samples.harness_stacks = sampler.worst()
            samples.late = sum(1 for p in fake.take_problems() if "allows 3s" in p)
    return samples


def figures(values: list[float]) -> str:
    """Format the median and p99 of some latencies."""
    if not values:
        return f"{'-':>8} {'-':>8}"
    return f"{ms(statistics.median(values))} {ms(percentile(values, 0.99))}"


HEADER = (
    "setup    saved games  cmds turns  ack med  ack p99  ans med  ans p99 boardmed boardp99   ac med   ac p99 |"
    " bot stall    busy >50ms   gc max cpu/cmd loop/cmd cpu% cmd/s |"
    " harness stall gc max cpu/cmd | late errors abandoned wall s"
)


def report(setup: str, saved: int, games: int, samples: Samples, seconds: float) -> str:
    """Format one level as a table row."""
    bot, commands = samples.bot, max(1, len(samples.answer))
    window = max(bot.window, 1e-9)
    cpu = net(bot.cpu, bot.idle_cpu * bot.window, commands)
    loop_cpu = net(bot.loop_cpu, bot.idle_loop_cpu * bot.window, commands)
    return (
        f"{setup:<8} {saved:5d} {games:5d} {len(samples.answer):5d} {samples.turns:5d}"
        f"{figures(samples.ack)} {figures(samples.answer)} {figures(samples.board)} {figures(samples.autocomplete)} |"
        f"{ms(bot.stall)}{ms(bot.busy_stall)} {bot.stalls_over_limit:5d}{ms(bot.gc_pause)}"
        f"{cpu}{loop_cpu}"
        f" {bot.cpu / window:4.0%} {len(samples.answer) / window:5.1f} |"
        f"     {ms(samples.harness_stall)}{ms(samples.harness_gc)}{ms(samples.harness_cpu / commands)} |"
        f" {samples.late:4d} {bot.errors:6d} {samples.abandoned:9d} {seconds:6.1f}"
    )


def net(cpu: float, idle: float, commands: int) -> str:
    """Format CPU seconds less the idle cost, per command; "-" when the idle cost is most of it (too few commands)."""
    if idle > cpu / 2:
        return f"{'-':>8}"
    return ms((cpu - idle) / commands)


def print_profile(path: Path, commands: int, top: int) -> None:
    """Print the functions that cost the bot process most, in ms of own CPU time per slash command."""
    import pstats

    for part, title in ((path, "event loop thread"), (Path(f"{path}.threads"), "to_thread worker threads")):
        if not part.exists():
            continue
        stats: Any = pstats.Stats(str(part)).stats
        total = sum(row[2] for row in stats.values())
        print(f"  {title}: {total * 1000 / commands:.1f} ms CPU per command (profiled, so inflated)")
        rows = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
        for (filename, line, name), (_cc, calls, tottime, cumtime, _callers) in rows:
            where = f"{Path(filename).name}:{line}" if line else filename
            print(
                f"    {tottime * 1000 / commands:7.2f} ms own {cumtime * 1000 / commands:8.2f} ms cum"
                f" {calls / commands:7.1f} calls  {name}  ({where})"
            )


async def main() -> None:
    """Run every level, paced and/or in closed loop, on each saved-games database, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="1,50,100,200", help="numbers of concurrent games (default 1,50,100,200)")
    parser.add_argument(
        "--saved", default="0", help="saved games in the database before the bot starts (default 0; e.g. 0,1000,10000)"
    )
    parser.add_argument("--kinds", default=",".join(KINDS), help="games to play, round-robin (default all three)")
    parser.add_argument("--turns", type=int, default=12, help="actions per game after /game start (default 12)")
    parser.add_argument(
        "--think", type=float, default=2.0, help="paced run: mean seconds a player thinks (default 2.0; 0: none)"
    )
    parser.add_argument(
        "--stagger", type=float, default=3.0, help="paced run: games open within this many seconds (default 3)"
    )
    parser.add_argument("--runs", default="paced", help="which runs: paced, closed or paced,closed (default paced)")
    parser.add_argument(
        "--setups",
        default="sqlite",
        help="sqlite (one process, SQLite file), postgres (--processes shard processes on one throwaway"
        " PostgreSQL server), or both: sqlite,postgres (default sqlite)",
    )
    parser.add_argument("--processes", type=int, default=2, help="postgres setup: shard processes (default 2)")
    parser.add_argument("--in-process", action="store_true", help="run the bot in this process and event loop")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="write and summarise cProfile stats here")
    parser.add_argument("--top", type=int, default=25, help="functions to list per profile (default 25)")
    parser.add_argument("--stacks", action="store_true", help="show where the bot's event loop was while blocked")
    args = parser.parse_args()
    if (args.profile or args.stacks) and args.in_process:
        parser.error("--profile and --stacks look inside the bot process: drop --in-process")
    kinds = tuple(kind for kind in args.kinds.split(",") if kind)
    if not kinds or any(kind not in KINDS for kind in kinds):
        parser.error(f"--kinds takes some of {','.join(KINDS)}")
    setups = [setup.strip() for setup in args.setups.split(",") if setup.strip()]
    if not setups or set(setups) - {"sqlite", "postgres"}:
        parser.error("--setups takes sqlite, postgres or sqlite,postgres")
    if "postgres" in setups and (args.in_process or args.profile or args.stacks):
        parser.error("the postgres setup runs shard processes: drop --in-process, --profile and --stacks")
    logging.getLogger().setLevel(logging.ERROR)
    server = None
    if "postgres" in setups:
        from tests.postgres import start_server

        server = start_server()
    try:
        await run_all(args, kinds, setups, server)
    finally:
        if server is not None:
            server.stop()


async def measure_level(
    args: argparse.Namespace,
    run: str,
    think: float,
    size: int,
    games: int,
    setup: str,
    kinds: tuple[str, ...],
    saved: Path | None,
    server: Any,
) -> Samples:
    """Measure one level of one setup and print its row (and profile, stacks)."""
    profile = None
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
        profile = (args.profile / f"bot-{run}-{size}-{games}.prof").resolve()
    started = time.monotonic()
    samples = await run_level(
        games,
        args.turns,
        think,
        stagger=args.stagger,
        in_process=args.in_process,
        profile=profile,
        stacks=args.stacks,
        kinds=kinds,
        saved=saved,
        postgres=await server.new_schema() if setup == "postgres" else None,
        processes=args.processes,
    )
    print(report(setup, size, games, samples, time.monotonic() - started), flush=True)
    for blocked, stack in samples.bot.stall_stacks:
        print(f"  bot {blocked:7.0f} ms blocked in {stack}")
    for blocked, stack in samples.harness_stacks[:6]:
        print(f"  harness {blocked:7.0f} ms blocked in {stack}")
    if profile is not None:
        print_profile(profile, max(1, len(samples.answer)), args.top)
    return samples


async def run_all(args: argparse.Namespace, kinds: tuple[str, ...], setups: list[str], server: Any) -> None:
    """Run every level of every setup on each saved-games database, paced and/or in closed loop."""
    levels = [int(level) for level in args.levels.split(",")]
    sizes = [int(size) for size in args.saved.split(",")]
    runs = [run for run in args.runs.split(",") if run in ("paced", "closed")]
    if args.think <= 0:
        runs = ["closed"]
    where = "in this process" if args.in_process else "in its own process"
    print("Ice Floe latency: command or menu choice injected -> acknowledged (ack) / answer shown (ans) /")
    print("the channel shows the board the move made (board, moves only), ms")
    print(
        f"{args.turns} actions per game after the lobby; games {', '.join(kinds)} in turn with 2, 3, 4 players;"
        f" ac = autocomplete; the bot runs {where}"
    )
    if "postgres" in setups:
        print(
            f"setup postgres = {args.processes} bot processes, one shard each, on one local PostgreSQL server"
            " (games spread over one server per shard); sqlite = one process on a SQLite file"
        )
    refusals: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ice-floe-seed-") as seeds:
        for size in sizes:
            saved = None
            if size:
                saved = Path(seeds) / f"saved-{size}.db"
                started = time.monotonic()
                census = await asyncio.to_thread(seed, str(saved), size)
                print(f"\nseeded {size} saved games in {time.monotonic() - started:.1f} s: {census}", flush=True)
            for run in runs:
                think = args.think if run == "paced" else 0.0
                if run == "paced":
                    print(
                        f"\npaced, {size} saved games: players think {think:g} s on average (0.5x-1.5x) between"
                        f" actions; the games open within {args.stagger:g} s"
                    )
                else:
                    print(f"\nclosed loop, {size} saved games: every player acts the instant it sees the answer")
                print(HEADER, flush=True)
                for games in levels:
                    for setup in setups:
                        samples = await measure_level(args, run, think, size, games, setup, kinds, saved, server)
                        label = f"{run} {setup} {size} saved {games} games"
                        refusals.extend(f"  {label}: {text}" for text in dict.fromkeys(samples.refusals))
                        refusals.extend(f"  {label}, bot error: {text}" for text in samples.bot.error_lines)
    print(
        "\nbot stall = longest event-loop block in the bot process (postgres: the worst of its processes; cpu"
        "\nsummed); busy = the same counting only the bot's CPU"
        "\ntime during a block (the rest is the OS running other processes); >50ms = blocks longer than 50 ms;"
        "\ngc max = the bot's longest garbage collection pause; cpu/cmd = CPU of the bot process (all threads)"
        "\nand its worker processes per slash command, autocompletes included, less what the idle bot spends"
        "\n(- when that is most of it); loop/cmd = its event-loop thread alone; cpu% = the bot's CPU time"
        "\n(with its workers) over the run's wall time, in % of one core;"
        "\ncmd/s = slash commands answered per second (in closed loop: the bot's capacity on this machine);"
        "\nharness = the fake Discord and the players (this process): longest event-loop block, CPU per command"
        "\n(idle cost included, so large when there are few commands);"
        "\nlate = acknowledgements Discord would refuse (after 3 s); errors = ERROR records the bot logged;"
        "\nabandoned = games stopped because the bot refused a command or did not answer (first ones below)"
    )
    for line in refusals[:10]:
        print(line)


if __name__ == "__main__":
    asyncio.run(main())
