"""Measure Ice Floe's answer latency with 1, 10 and 50 concurrent Hey, That's My Fish! games.

Run from the repository root:  .venv/bin/python -m bench.latency [--levels 1,10,50] [--turns 12] [--think 2.0]
[--setups sqlite,postgres] [--processes 2]

--setups sqlite,postgres measures, level by level, one bot process on SQLite beside two bot processes (one
shard each) sharing a throwaway PostgreSQL server started for the run (tests/postgres.py; needs PostgreSQL
in /usr/lib/postgresql), e.g.  --levels 50,200 --setups sqlite,postgres

The fake Discord of tests/harness and the simulated players run in this process; the real bot (create_bot,
real discord.py) runs in a child process (bench/bot_process.py) that connects to the fake on 127.0.0.1, so
the figures are the bot's, not the harness's. Latencies are the fake's own records: from the moment it sent
the interaction to the moment the bot's acknowledgement or visible answer reached it. The bot process watches
its own event loop for stalls and reports them, with its CPU time and garbage collection pauses.

Two runs per level:
  paced        players think between actions, --think seconds on average (uniformly 0.5x-1.5x), plus a
               quarter of that while typing between autocomplete requests, and the games open at random
               within --stagger seconds: 50 games being played at once;
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
import json
import logging
import math
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bot_process import PREFIX, Report
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
    autocomplete: list[float] = field(default_factory=list)
    harness_stall: float = 0.0
    harness_cpu: float = 0.0
    late: int = 0
    timeouts: int = 0
    turns: int = 0
    abandoned: int = 0
    refusals: list[str] = field(default_factory=list)
    bot: Report = field(default_factory=Report)


class Refused(Exception):
    """The bot refused a game command (or Discord refused its answer), so that game cannot go on."""


class BenchDiscord(FakeDiscord):
    """The harness's fake Discord, waking each waiting player alone when its interaction is answered."""

    def __init__(self) -> None:
        self.waiting: dict[int, tuple[FakeInteraction, asyncio.Future[None]]] = {}
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


async def watch_stalls(samples: Samples, interval: float = 0.005) -> None:
    """Record the longest time this process's event loop was blocked beyond a short sleep."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(interval)
        samples.harness_stall = max(samples.harness_stall, loop.time() - started - interval)


async def command(fake: BenchDiscord, samples: Samples, result: InteractionResult) -> FakeMessage:
    """Time a slash command from injection to its acknowledgement and to the answer the user sees."""
    ix = result.interaction
    await fake.settled(ix)
    if ix.callback_type is None or ix.acked_at is None or ix.answered_at is None:
        raise Refused(f"{ix.label}: Discord refused the answer {ix.rejections}")
    samples.ack.append(ix.acked_at - ix.created)
    samples.answer.append(ix.answered_at - ix.created)
    if result.message.ephemeral:
        raise Refused(f"{ix.label}: {result.message.content}")
    return result.message


async def choices(fake: BenchDiscord, samples: Samples, result: InteractionResult) -> list[dict[str, Any]]:
    """Time an autocomplete request and return the choices offered."""
    ix = result.interaction
    await fake.settled(ix)
    if ix.answered_at is None:
        raise Refused(f"{ix.label}: Discord refused the answer {ix.rejections}")
    samples.autocomplete.append(ix.answered_at - ix.created)
    return result.choices


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


async def play(
    fake: BenchDiscord,
    driver: Driver,
    channel: FakeChannel,
    players: list[FakeUser],
    turns: int,
    samples: Samples,
    pacer: Pacer,
) -> None:
    """Open, start and play one two-player game for `turns` actions; count it abandoned if refused."""
    try:
        await play_turns(fake, driver, channel, players, turns, samples, pacer)
    except Refused as refusal:
        samples.abandoned += 1
        samples.refusals.append(str(refusal))
    except TimeoutError:
        samples.timeouts += 1
        samples.abandoned += 1
        samples.refusals.append(f"no answer within {ANSWER_TIMEOUT:.0f} s")


async def play_turns(
    fake: BenchDiscord,
    driver: Driver,
    channel: FakeChannel,
    players: list[FakeUser],
    turns: int,
    samples: Samples,
    pacer: Pacer,
) -> None:
    """Open, start and play one two-player game for `turns` actions, choosing from autocomplete."""
    host, guest = players
    rng = pacer.rng
    await pacer.arrive()
    for user, line in ((host, "/game new game:fish"), (guest, "/game join"), (host, "/game start")):
        await pacer.pause()
        board = await command(fake, samples, driver.slash(user, line, channel=channel))
    for _ in range(turns):
        if "**Final standings**" in board.content:
            return
        ping = TURN_PING.search(board.content)
        assert ping, board.content
        player = next(p for p in players if p.id == int(ping.group(1)))
        await pacer.pause()
        if "places a penguin" in board.content:
            typed = "/fish place tile:"
            tiles = await choices(fake, samples, driver.autocomplete_request(player, typed, channel=channel))
            action = f"{typed}{rng.choice(tiles)['value']}"
        else:
            typed = "/fish move from:"
            starts = await choices(fake, samples, driver.autocomplete_request(player, typed, channel=channel))
            await pacer.pause(0.25)
            typed = f"{typed}{rng.choice(starts)['value']} to:"
            ends = await choices(fake, samples, driver.autocomplete_request(player, typed, channel=channel))
            action = f"{typed}{rng.choice(ends)['value']}"
        await pacer.pause(0.25)
        board = await command(fake, samples, driver.slash(player, action, channel=channel))
        samples.turns += 1


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
            await bot.expect("ready", within=60)
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
    postgres: str | None = None,
    processes: int = 2,
) -> Samples:
    """Play `games` games at once against a fresh fake Discord, bot and database.

    With `postgres` (a DATABASE_URL) the bot runs as `processes` shard processes sharing that database, and
    the games are spread over one server per shard.
    """
    samples = Samples()
    with tempfile.TemporaryDirectory(prefix="ice-floe-bench-") as tmp:
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
            async with bot_context as bot:
                pairs = [
                    [driver.user(f"p{n}a", guild=home), driver.user(f"p{n}b", guild=home)]
                    for n, home in enumerate(homes)
                ]
                watcher = asyncio.create_task(watch_stalls(samples))
                cpu = time.process_time()
                await bot.begin()
                try:
                    await asyncio.gather(
                        *(
                            play(fake, driver, channel, pair, turns, samples, Pacer(random.Random(n), think, stagger))
                            for n, (channel, pair) in enumerate(zip(channels, pairs, strict=True))
                        )
                    )
                finally:
                    samples.harness_cpu = time.process_time() - cpu
                    samples.bot = await bot.end()
                    watcher.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await watcher
            samples.late = sum(1 for p in fake.take_problems() if "allows 3s" in p)
    return samples


def figures(values: list[float]) -> str:
    """Format the median and p99 of some latencies."""
    if not values:
        return f"{'-':>8} {'-':>8}"
    return f"{ms(statistics.median(values))} {ms(percentile(values, 0.99))}"


HEADER = (
    "setup        games  cmds turns  ack med  ack p99  ans med  ans p99   ac med   ac p99 |"
    " bot stall    busy >50ms   gc max cpu/cmd loop/cmd cpu% cmd/s |"
    " harness stall cpu/cmd | late errors abandoned wall s"
)


def report(setup: str, games: int, samples: Samples, seconds: float) -> str:
    """Format one level as a table row."""
    bot, commands = samples.bot, max(1, len(samples.answer))
    window = max(bot.window, 1e-9)
    cpu = net(bot.cpu, bot.idle_cpu * bot.window, commands)
    loop_cpu = net(bot.loop_cpu, bot.idle_loop_cpu * bot.window, commands)
    return (
        f"{setup:<12} {games:5d} {len(samples.answer):5d} {samples.turns:5d}"
        f"{figures(samples.ack)} {figures(samples.answer)} {figures(samples.autocomplete)} |"
        f"{ms(bot.stall)}{ms(bot.busy_stall)} {bot.stalls_over_limit:5d}{ms(bot.gc_pause)}"
        f"{cpu}{loop_cpu}"
        f" {bot.cpu / window:4.0%} {len(samples.answer) / window:5.1f} |"
        f"     {ms(samples.harness_stall)}{ms(samples.harness_cpu / commands)} |"
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
    """Run every level, paced and in closed loop, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="1,10,50", help="numbers of concurrent games (default 1,10,50)")
    parser.add_argument("--turns", type=int, default=12, help="actions per game after /game start (default 12)")
    parser.add_argument(
        "--think", type=float, default=2.0, help="paced run: mean seconds a player thinks (default 2.0; 0: none)"
    )
    parser.add_argument(
        "--stagger", type=float, default=3.0, help="paced run: games open within this many seconds (default 3)"
    )
    parser.add_argument("--runs", default="paced,closed", help="which runs: paced, closed or both (default)")
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
        await run_all(args, setups, server)
    finally:
        if server is not None:
            server.stop()


async def run_all(args: argparse.Namespace, setups: list[str], server: Any) -> None:
    """Run every level of every setup, paced and in closed loop, and print the figures."""
    levels = [int(level) for level in args.levels.split(",")]
    runs = [run for run in args.runs.split(",") if run in ("paced", "closed")]
    if args.think <= 0:
        runs = ["closed"]
    where = "in this process" if args.in_process else "in its own process"
    print("Ice Floe latency: slash command injected -> acknowledged (ack) / board or reply shown (answer), ms")
    print(f"{args.turns} actions per 2-player game after the lobby; ac = autocomplete; the bot runs {where}")
    if "postgres" in setups:
        print(
            f"setup postgres = {args.processes} bot processes, one shard each, on one local PostgreSQL server"
            " (games spread over one server per shard); sqlite = one process on a SQLite file"
        )
    refusals: list[str] = []
    for run in runs:
        think = args.think if run == "paced" else 0.0
        if run == "paced":
            print(
                f"\npaced: players think {think:g} s on average (0.5x-1.5x) between actions;"
                f" the games open within {args.stagger:g} s"
            )
        else:
            print("\nclosed loop: every player acts the instant it sees the answer (stress)")
        print(HEADER)
        for games in levels:
            for setup in setups:
                profile = None
                if args.profile:
                    args.profile.mkdir(parents=True, exist_ok=True)
                    profile = (args.profile / f"bot-{run}-{games}.prof").resolve()
                started = time.monotonic()
                samples = await run_level(
                    games,
                    args.turns,
                    think,
                    stagger=args.stagger,
                    in_process=args.in_process,
                    profile=profile,
                    stacks=args.stacks,
                    postgres=await server.new_schema() if setup == "postgres" else None,
                    processes=args.processes,
                )
                print(report(setup, games, samples, time.monotonic() - started), flush=True)
                for blocked, stack in samples.bot.stall_stacks:
                    print(f"  {blocked:7.0f} ms blocked in {stack}")
                if profile is not None:
                    print_profile(profile, max(1, len(samples.answer)), args.top)
                label = f"{run} {setup} {games} games"
                refusals.extend(f"  {label}: {text}" for text in dict.fromkeys(samples.refusals))
                refusals.extend(f"  {label}, bot error: {text}" for text in samples.bot.error_lines)
    print(
        "\nbot stall = longest event-loop block in the bot process (postgres: the worst of its processes; cpu summed);"
        "\nbusy = the same counting only the bot's CPU"
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
