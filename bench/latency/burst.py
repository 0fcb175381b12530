"""Burst mode: N fish games whose players all move in the same second, round after round, bot in its own process.

Every game is opened, joined and started first (not measured). Then, each round, the player to move in every
game sends a legal move (read from the saved game, as a player reads the table) as a slash command, all N
within the same instant; the round ends when every game's channel shows the board its move made. The figures
are the fake Discord's own records, from the moment it sent an interaction: its acknowledgement (Discord
refuses one after 3 s; the target is 1 s) and the board in the channel (the target is 3 s).
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

from bench.latency.bots import BotProcess
from bench.latency.fake import BenchDiscord, StateReader
from bench.latency.players import Pacer, Table
from bench.latency.report import print_profile
from bench.latency.samples import ANSWER_TIMEOUT, Refused, Samples, ms, percentile
from bench.seed import seed as seed_games
from engine.registry import get
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
        steps = [(host, "/game new game:fish"), *((guest, "/game join") for guest in guests), (host, "/game start")]
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
        raise
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
) -> BurstSamples:
    """Set up `games` fish games, then play `rounds` rounds in which every game moves at the same instant.

    With `saved`, the bot starts on a copy of that database (games saved before, as a server's bot has).
    """
    burst = BurstSamples()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="ice-floe-burst-") as tmp:
        database = Path(tmp) / "bench.db"
        if saved is not None:
            await asyncio.to_thread(shutil.copyfile, saved, database)
        async with BenchDiscord() as fake:
            channels = [fake.add_text_channel(fake.guild, f"burst-{n}") for n in range(games)]
            driver = Driver(fake, timeout=ANSWER_TIMEOUT)
            async with BotProcess.running(fake, Path(tmp), profile, False) as bot, StateReader(str(database)) as reader:
                tables = []
                for n, channel in enumerate(channels):
                    seated = [driver.user(f"b{n}{chr(97 + k)}") for k in range(players)]
                    pacer = Pacer(random.Random(n), 0.0)
                    tables.append(Table(fake, driver, channel, seated, "fish", Samples(), pacer, reader))
                gate = asyncio.Semaphore(SETUP_AT_ONCE)
                await asyncio.gather(*(open_table(table, gate) for table in tables))
                fake.take_problems()  # what the set-up met is not measured
                await bot.begin()
                cpu, wall = time.process_time(), time.monotonic()
                try:
                    for _ in range(rounds):
                        moves = await asyncio.gather(*(next_move(table, rng) for table in tables))
                        playing = [(t, m) for t, m in zip(tables, moves, strict=True) if m is not None]
                        if not playing:
                            break
                        before = [table.board_signature() for table, _ in playing]
                        counted = len(burst.samples.ack), len(burst.samples.board)
                        started = time.monotonic()
                        sent = [table.slash(table.players[seat], command) for table, (seat, command) in playing]
                        burst.spread.append(time.monotonic() - started)
                        outcomes = await asyncio.gather(
                            *(
                                measure(table, result, shown, burst.samples)
                                for (table, _), result, shown in zip(playing, sent, before, strict=True)
                            ),
                            return_exceptions=True,
                        )
                        burst.rounds.append(time.monotonic() - started)
                        acks, boards = burst.samples.ack[counted[0] :], burst.samples.board[counted[1] :]
                        burst.worst.append((max(acks, default=0.0), max(boards, default=0.0)))
                        for outcome in outcomes:
                            if isinstance(outcome, Refused | TimeoutError):
                                burst.samples.abandoned += 1
                                burst.samples.refusals.append(str(outcome) or "no board within 30 s")
                            elif isinstance(outcome, BaseException):
                                raise outcome
                        burst.finished += len(playing)
                finally:
                    burst.harness_share = (time.process_time() - cpu) / max(time.monotonic() - wall, 1e-9)
                    burst.samples.bot = await bot.end()
            burst.samples.late = sum(1 for p in fake.take_problems() if "allows 3s" in p)
    return burst


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
    " bot stall cpu% cpu/move loop/move harness cpu% |"
    " late errors abandoned | load before -> after (1, 5, 15 min)  wall s"
)


async def print_bursts(
    levels: list[int], rounds: int, profile: Path | None = None, top: int = 25, saved: int = 0
) -> None:
    """Run a burst at each level and print one row per level, with the machine's load around it."""
    print("Ice Floe bursts: every fish game (2 players) sends its next move as a slash command in the same second;")
    print("ack = the interaction acknowledged, board = the channel shows the board the move made; ms from the")
    print("moment the fake Discord sent the interaction. Targets: ack p99 < 1 s, board p99 < 3 s. The bot runs in")
    print(f"its own process on a SQLite file holding {saved} saved games first; {rounds} rounds per level.")
    with tempfile.TemporaryDirectory(prefix="ice-floe-seed-") as seeds:
        database = None
        if saved:
            database = Path(seeds) / "saved.db"
            census = await asyncio.to_thread(seed_games, str(database), saved)
            print(f"(seeded {saved} saved games: {census})")
        print(BURST_HEADER, flush=True)
        for games in levels:
            await print_burst(games, rounds, profile, top, database)


async def print_burst(games: int, rounds: int, profile: Path | None, top: int, saved: Path | None) -> None:
    """Run a burst of `games` games and print its row."""
    before, started = load(), time.monotonic()
    path = (profile / f"bot-burst-{games}.prof").resolve() if profile else None
    if profile:
        await asyncio.to_thread(profile.mkdir, parents=True, exist_ok=True)
    burst = await run_burst(games, rounds, profile=path, saved=saved)
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
        f"  (the harness sent each round's moves within {spread * 1000:.0f} ms; rounds took {rounds_s} s)",
        flush=True,
    )
    if path is not None:
        print_profile(path, max(1, burst.finished), top)
