"""The bot under measure: in its own process (one, or one per shard), or in this event loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

from bench.bot_process import PREFIX, Report
from bench.latency.samples import Samples, watch_stalls
from tests.harness import (
    Driver,
    FakeDiscord,
)

ROOT = Path(__file__).resolve().parent.parent.parent


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
        extra: tuple[str, ...] = (),
    ) -> AsyncIterator[BotProcess]:
        """Start the bot process against the fake, wait until it is ready, and kill it on the way out.

        `database` is a DATABASE_URL (default: a SQLite file in `folder`); with `shard` = (id, count) the
        process runs that one shard and commands are synced globally (by shard 0's process). `extra` are more
        bench.bot_process options (the table's).
        """
        log = folder / (f"bot-shard{shard[0]}.log" if shard else "bot.log")
        guild = 0 if shard else fake.guild.id
        arguments = [
            *("--api", fake.api_base, "--gateway", fake.ws_url + "/", "--cdn", fake.base_url),
            *("--token", fake.token, "--guild", str(guild), "--database", database or str(folder / "bench.db")),
            *(("--shard", str(shard[0]), "--shards", str(shard[1])) if shard else ()),
            *(("--profile", str(profile)) if profile else ()),
            *(("--stacks",) if stacks else ()),
            *extra,
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
        summed = ("stalls_over_limit", "cpu", "loop_cpu", "idle_cpu", "idle_loop_cpu", "gc_total", "errors")
        for name in (*summed, "round_trips", "commits", "moves"):
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
