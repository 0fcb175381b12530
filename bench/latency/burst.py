"""Burst mode: N games whose players all move in the same second, round after round, bot in its own process.

Every game is opened, joined and started first (not measured), on a database that may hold thousands of saved
games. Then, each round, every game moves at the same instant: a fish player sends a legal move (read from the
saved game, as a player reads the table) as a slash command; a 10 Gallon Tank or Flippers player plays its turn
as players do (autocomplete, then the command or a menu). The round ends when every game's channel shows the
board its move made. The figures are the fake Discord's own records, from the moment it sent an interaction:
its acknowledgement (Discord refuses one after 3 s; the target is 1 s) and the board in the channel (the target
is 3 s).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.fish import calibration
from bench.latency.bots import BotProcess, BotProcesses
from bench.latency.fake import BenchDiscord, StateReader
from bench.latency.players import Pacer, Table
from bench.latency.report import print_profile
from bench.latency.samples import ANSWER_TIMEOUT, Refused, Samples, ms, no_board, percentile
from bench.seed import seed as seed_games
from engine.registry import get
from storage.copy import copy
from tests.harness import Driver, InteractionResult

SETUP_AT_ONCE = 10
"""Lobbies opened at once while setting up (the set-up is not measured)."""
SETUP_TRIES = 4


@dataclass
class BurstSamples:
    """What the rounds of one burst level measured."""

    samples: Samples = field(default_factory=Samples)
    rounds: list[float] = field(default_factory=list)
    """Wall seconds from each round's first command to its last board."""
    worst: list[tuple[float, float]] = field(default_factory=list)
    """The slowest acknowledgement and board of each round, in seconds."""
    spread: list[float] = field(default_factory=list)
    """Seconds the harness took to send each round's commands (they count as "the same second" below 1 s)."""
    finished: int = 0
    harness_share: float = 0.0
    """The harness's CPU time (fake Discord and players, one process) over the rounds' wall time."""
    counted: int = 0
    """Requests the bot sent during the rounds that Discord counts against its global limit (not webhooks')."""
    uncounted: int = 0
    """Requests the bot sent during the rounds through interactions (responses, follow-ups and their edits)."""


def fish_command(action: dict[str, object]) -> str:
    """Return the slash command a player types for a fish action."""
    if action["type"] == "place":
        return f"/fish place tile:{action['tile']}"
    return f"/fish move from:{action['from']} to:{action['to']}"


async def next_move(table: Table, rng: random.Random) -> tuple[int, str] | None:
    """Return the seat to move and a legal move's command for a table, or None once its game is over."""
    saved = await table.reader.state(table.channel.id)
    if saved is None:
        return None
    game = get("fish")
    state = game.load(json.loads(saved))
    if game.is_over(state):
        return None
    seat = game.to_act(state)[0]
    return seat, fish_command(rng.choice(game.legal_actions(state, seat)))


async def open_table(table: Table, gate: asyncio.Semaphore) -> None:
    """Open, fill and start one table's game (not measured; a command refused as late is sent again)."""
    async with gate:
        host, *guests = table.players
        steps = [
            (host, f"/game new game:{table.kind}"),
            *((guest, "/game join") for guest in guests),
            (host, "/game start"),
        ]
        for player, command in steps:
            for _ in range(SETUP_TRIES):
                ix = table.slash(player, command).interaction
                await table.fake.settled(ix)
                if ix.callback_type is not None:
                    break  # done, or already done by a try the bot answered too late ("already has a game")
        await table.fake.until(table.channel, lambda: table.board_signature()[0] > 0)


async def measure(table: Table, result: InteractionResult, before: tuple[int, str], samples: Samples) -> None:
    """Record a move's acknowledgement, its answer and when its channel shows the board it made."""
    ix = result.interaction
    try:
        seen = await table.fake.until(table.channel, lambda: table.board_signature() != before)
    except TimeoutError:
        samples.board.append(math.inf)
        raise TimeoutError(no_board(result)) from None
    samples.board.append(seen - ix.created)
    await table.fake.settled(ix)
    if ix.acked_at is None or ix.answered_at is None:
        samples.ack.append(math.inf)  # refused: acknowledged after Discord's 3 s, counted as the slowest
        raise Refused(f"{ix.label}: Discord refused the answer {ix.rejections}")
    samples.ack.append(ix.acked_at - ix.created)
    samples.answer.append(ix.answered_at - ix.created)
    if result.message.ephemeral:
        raise Refused(f"{ix.label}: {result.message.content}")
    samples.turns += 1


async def run_burst(
    games: int,
    rounds: int,
    *,
    players: int = 2,
    seed: int = 1,
    profile: Path | None = None,
    saved: Path | None = None,
    kinds: tuple[str, ...] = ("fish",),
    postgres: str | None = None,
    processes: int = 2,
) -> BurstSamples:
    """Set up `games` games (of `kinds`, in turn), then play `rounds` rounds in which every game moves at once.

    A fish move is read from the saved game and sent as a slash command, every fish game's within the same
    instant. A 10 Gallon Tank or Flippers turn starts at that instant too and is played as its players play it
    (autocomplete, then the command or a menu, answered in public or privately). With `saved`, the bot starts on
    a copy of that database (games saved before, as a server's bot has). With `postgres` (an empty database's
    DATABASE_URL) the bot runs as `processes` shard processes sharing it, the games spread over one server per
    shard.
    """
    burst = BurstSamples()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="ice-floe-burst-") as tmp:
        database = Path(tmp) / "bench.db"
        if saved is not None and postgres:
            await copy(f"sqlite:///{saved}", postgres)
        elif saved is not None:
            await asyncio.to_thread(shutil.copyfile, saved, database)
        async with BenchDiscord() as fake:
            guilds = [fake.guild]
            if postgres:
                fake.recommended_shards = processes
                guilds = [fake.add_guild(f"burst shard {n}", shard=(n, processes)) for n in range(processes)]
            homes = [guilds[n % len(guilds)] for n in range(games)]
            channels = [fake.add_text_channel(home, f"burst-{n}") for n, home in enumerate(homes)]
            driver = Driver(fake, timeout=ANSWER_TIMEOUT)
            if postgres:
                running: Any = BotProcesses.running(fake, Path(tmp), postgres, processes)
            else:
                running = BotProcess.running(fake, Path(tmp), profile, False)
            async with running as bot, StateReader(postgres or str(database)) as reader:
                tables = []
                for n, (channel, home) in enumerate(zip(channels, homes, strict=True)):
                    seated = [driver.user(f"b{n}{chr(97 + k)}", guild=home) for k in range(players)]
                    pacer = Pacer(random.Random(n), 0.0)
                    kind = kinds[n % len(kinds)]
                    tables.append(Table(fake, driver, channel, seated, kind, Samples(), pacer, reader))
                gate = asyncio.Semaphore(SETUP_AT_ONCE)
                await asyncio.gather(*(open_table(table, gate) for table in tables))
                fake.take_problems()  # what the set-up met is not measured
                await bot.begin()
                first_call = len(fake.calls)
                cpu, wall = time.process_time(), time.monotonic()
                playing = list(tables)
                try:
                    for _ in range(rounds):
                        playing = await play_round(playing, rng, burst)
                        if not playing:
                            break
                finally:
                    burst.harness_share = (time.process_time() - cpu) / max(time.monotonic() - wall, 1e-9)
                    burst.counted = len(fake.counted_calls(first_call))
                    burst.uncounted = len(fake.calls) - first_call - burst.counted
                    burst.samples.bot = await bot.end()
            burst.samples.late = sum(1 for p in fake.take_problems() if "allows 3s" in p)
    return burst


async def play_round(tables: list[Table], rng: random.Random, burst: BurstSamples) -> list[Table]:
    """Let every table move at the same instant; record the round; return the tables whose game goes on."""
    fish = [table for table in tables if table.kind == "fish"]
    others = [table for table in tables if table.kind != "fish"]
    moves = await asyncio.gather(*(next_move(table, rng) for table in fish))
    ready = [(t, m) for t, m in zip(fish, moves, strict=True) if m is not None]
    if not ready and not others:
        return []
    before = [table.board_signature() for table, _ in ready]
    counted = len(burst.samples.ack), len(burst.samples.board)
    for table in others:
        table.samples = Samples()
    started = time.monotonic()
    sent = [table.slash(table.players[seat], command) for table, (seat, command) in ready]
    burst.spread.append(time.monotonic() - started)
    turns = [getattr(table, f"{table.kind}_turn")() for table in others]
    outcomes = await asyncio.gather(
        *(
            measure(table, result, shown, burst.samples)
            for (table, _), result, shown in zip(ready, sent, before, strict=True)
        ),
        *turns,
        return_exceptions=True,
    )
    burst.rounds.append(time.monotonic() - started)
    for table in others:
        burst.samples.ack += table.samples.ack
        burst.samples.board += table.samples.board
    acks, boards = burst.samples.ack[counted[0] :], burst.samples.board[counted[1] :]
    burst.worst.append((max(acks, default=0.0), max(boards, default=0.0)))
    going_on = [table for table, _ in ready]
    for table, outcome in zip([t for t, _ in ready] + others, outcomes, strict=True):
        if isinstance(outcome, Refused | TimeoutError):
            burst.samples.abandoned += 1
            burst.samples.refusals.append(str(outcome) or "no board within 30 s")
            if table.kind != "fish":
                going_on.append(table)  # its next turn is read from the saved game again
        elif isinstance(outcome, BaseException):
            raise outcome
        elif outcome is not False:
            burst.finished += 1
            if table.kind != "fish":
                going_on.append(table)
    return going_on


def load() -> str:
    """Return the machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def late(value: float) -> str:
    """Format seconds as milliseconds; an answer Discord refused (or that never came) as "refused"."""
    return ms(value) if math.isfinite(value) else f"{'refused':>8}"


def over(values: list[float], limit: float) -> int:
    """Count the latencies above a limit."""
    return sum(1 for value in values if value > limit)


BURST_HEADER = (
    "games rounds moves  ack med  ack p99  ack max >1s  board med board p99 board max >3s |"
    " bot stall cpu% cpu/move loop/move harness cpu% | trips/move commits/move |"
    " late errors abandoned | load before -> after (1, 5, 15 min)  wall s"
)


async def print_bursts(
    levels: list[int],
    rounds: int,
    profile: Path | None = None,
    top: int = 25,
    saved: int = 0,
    kinds: tuple[str, ...] = ("fish",),
    schemas: Any = None,
    processes: int = 2,
) -> None:
    """Run a burst at each level and print one row per level, with the machine's load around it.

    With `schemas` (whose `new_schema()` returns an empty PostgreSQL database's URL) each level runs on a fresh
    one with `processes` shard processes; else one bot process runs on a SQLite file.
    """
    print(f"Ice Floe bursts: every game ({', '.join(kinds)} in turn, 2 players) moves in the same second: a fish")
    print("move is a slash command, a tank or flippers turn is played as its players play it (autocomplete, then a")
    print("command or a menu). ack = the move acknowledged, board = the channel shows the board it made; ms from the")
    print("moment the fake Discord sent the interaction. Targets: ack p99 < 1 s, board p99 < 3 s. The bot runs in")
    if schemas is None:
        print(f"its own process on a SQLite file holding {saved} saved games first; {rounds} rounds per level.")
    else:
        print(
            f"{processes} processes of its own, one shard each, sharing one PostgreSQL database holding {saved} saved"
            f" games first (games spread over one server per shard); {rounds} rounds per level."
        )
    print("trips/move, commits/move = the bot's database round trips and commits during the rounds (background")
    print("work such as the outbox and reminders included) per move it saved.")
    with tempfile.TemporaryDirectory(prefix="ice-floe-seed-") as seeds:
        database = None
        if saved:
            database = Path(seeds) / "saved.db"
            census = await asyncio.to_thread(seed_games, str(database), saved)
            print(f"(seeded {saved} saved games: {census})")
        print(BURST_HEADER, flush=True)
        for games in levels:
            postgres = None if schemas is None else await schemas.new_schema()
            await print_burst(games, rounds, profile, top, database, kinds, postgres, processes)


async def print_burst(
    games: int,
    rounds: int,
    profile: Path | None,
    top: int,
    saved: Path | None,
    kinds: tuple[str, ...],
    postgres: str | None = None,
    processes: int = 2,
) -> None:
    """Run a burst of `games` games and print its row."""
    speed = calibration()  # this machine's Python speed drifts from run to run: each row says what it was
    before, started = load(), time.monotonic()
    path = (profile / f"bot-burst-{games}.prof").resolve() if profile else None
    if profile:
        await asyncio.to_thread(profile.mkdir, parents=True, exist_ok=True)
    burst = await run_burst(
        games, rounds, profile=path, saved=saved, kinds=kinds, postgres=postgres, processes=processes
    )
    samples, bot = burst.samples, burst.samples.bot
    ack, board = samples.ack or [0.0], samples.board or [0.0]
    print(
        f"{games:5d} {len(burst.rounds):6d} {burst.finished:5d}"
        f" {late(statistics.median(ack))} {late(percentile(ack, 0.99))} {late(max(ack))} {over(ack, 1.0):3d}"
        f"  {late(statistics.median(board))}  {late(percentile(board, 0.99))}  {late(max(board))}"
        f" {over(board, 3.0):3d} |"
        f" {ms(bot.stall)} {bot.cpu / max(bot.window, 1e-9):4.0%}"
        f" {ms(bot.cpu / max(burst.finished, 1))} {ms(bot.loop_cpu / max(burst.finished, 1))}"
        f" {burst.harness_share:12.0%} |"
        f" {bot.round_trips / max(bot.moves, 1):10.1f} {bot.commits / max(bot.moves, 1):12.1f} |"
        f" {samples.late:4d} {bot.errors:6d} {samples.abandoned:9d} |"
        f" {before} -> {load()}  {time.monotonic() - started:6.1f}",
        flush=True,
    )
    for line in dict.fromkeys(samples.refusals[:5] + bot.error_lines[:5]):
        print(f"  {line}")
    spread = max(burst.spread, default=0.0)
    rounds_s = ", ".join(
        f"{seconds:.2f} (slowest ack {ack:.2f}, board {board:.2f})"
        for seconds, (ack, board) in zip(burst.rounds, burst.worst, strict=True)
    )
    print(
        f"  (sum(range(1000)) took {speed:.1f} µs; the harness sent each round's moves within {spread * 1000:.0f} ms;"
        f" rounds took {rounds_s} s; requests per round: {burst.counted / max(len(burst.rounds), 1):.0f} counted"
        f" against Discord's global limit, {burst.uncounted / max(len(burst.rounds), 1):.0f} through interactions)",
        flush=True,
    )
    if path is not None:
        print_profile(path, max(1, burst.finished), top)
