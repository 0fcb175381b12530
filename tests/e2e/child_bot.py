"""Run the real bot in a child process a test can SIGKILL, and read what it saved.

tests/e2e/crash_run.py (fish moves) and tests/e2e/setup_kills.py (Flippers set-ups) build on `KillRun`: a
driver, the bot process, its SQLite database read-only, and a hook on every request the bot sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

from tests.harness import Driver, FakeDiscord
from tests.harness.rest import Call

ROOT = Path(__file__).resolve().parents[2]
ANSWER_S = 20.0
"""How long a command may take to be answered while the bot is killed and restarted around it."""
START_S = 180.0
"""How long a bot process may take to say it is ready (its imports and workers took over 60 s at load 14)."""


def children_of(pid: int) -> list[int]:
    """Return the live processes whose parent is `pid` (Linux /proc), e.g. the bot's worker processes."""
    found = []
    proc = Path("/proc")
    if not proc.exists():
        return found
    for entry in proc.iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Tell whether a process exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class BotProcess:
    """The bot in a child process (tests/e2e/crash_bot.py)."""

    def __init__(self, fake: FakeDiscord, database: Path, log: Path) -> None:
        self.fake = fake
        self.database = database
        self.log = log
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, workers: str = "thread", *, ack_first: bool = False, seed_file: Path | None = None) -> None:
        """Start the bot and wait until it is connected and has posted every board it owed.

        With `ack_first` it acknowledges every move before saving it; with `seed_file` it deals each new game
        from the seed written there (see tests/e2e/crash_bot.py).
        """
        fake = self.fake
        arguments = [
            *("--api", fake.api_base, "--gateway", fake.ws_url + "/", "--cdn", fake.base_url),
            *("--token", fake.token, "--guild", str(fake.guild.id), "--database", str(self.database)),
            *("--workers", workers),
            *(["--ack-first"] if ack_first else []),
            *(["--seed-file", str(seed_file)] if seed_file is not None else []),
        ]
        with self.log.open("ab") as stderr:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.e2e.crash_bot",
                *arguments,
                cwd=ROOT,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
                env=os.environ | {"PYTHONPATH": str(ROOT)},
            )
        assert self.process.stdout is not None
        async with asyncio.timeout(START_S):
            line = (await self.process.stdout.readline()).decode()
        if not line.startswith("crash_bot: ready"):
            tail = self.log.read_text(errors="replace")[-3000:]
            raise AssertionError(f"the bot process did not start; its log ends:\n{tail}")

    def kill(self) -> None:
        """SIGKILL the bot."""
        if self.process is not None and self.process.returncode is None:
            os.kill(self.process.pid, signal.SIGKILL)

    async def wait(self) -> None:
        """Wait for the killed bot to be gone."""
        if self.process is not None:
            await self.process.wait()

    @property
    def pid(self) -> int:
        """Return the bot's process id."""
        assert self.process is not None
        return self.process.pid


class KillRun:
    """Drive a bot in a child process that is killed now and then: its driver, process, database and request hook.

    Subclasses arm kills in `_on_request`, called with every request the bot sends before the fake answers it.
    """

    def __init__(self, fake: FakeDiscord, folder: Path, database: str) -> None:
        self.fake = fake
        self.driver = Driver(fake, timeout=ANSWER_S)
        self.database = folder / database
        self.bot = BotProcess(fake, self.database, folder / "bot.log")
        fake.request_hooks.append(self._on_request)

    async def _on_request(self, call: Call) -> tuple[int, Any] | None:
        """Return an answer to give the bot instead of the fake's (after killing it, say), or None."""
        return None

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Read the bot's database (read-only; the bot may be writing)."""
        conn = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5)
        conn.row_factory = sqlite3.Row
        try:
            return conn.execute(sql, args).fetchall()
        finally:
            conn.close()

    async def close(self) -> None:
        """Kill the bot if it still runs and stop hooking its requests."""
        self.bot.kill()
        await self.bot.wait()
        with contextlib.suppress(ValueError):
            self.fake.request_hooks.remove(self._on_request)
