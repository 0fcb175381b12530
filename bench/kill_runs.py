"""Run a kill harness of tests/e2e (the bot in a child process, SIGKILLed now and then) and print its report.

Shared by bench.crash_soak (fish moves, tests/e2e/crash_run.py) and bench.setup_kills (Flippers set-ups,
tests/e2e/setup_kills.py): a scratch folder, a fresh fake Discord, the run closed whatever happens.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

from tests.e2e.child_bot import KillRun
from tests.harness import FakeDiscord

Run = TypeVar("Run", bound=KillRun)
LISTED = 20
"""The most entries of a list in the report printed one by one."""


async def run_killed(
    prefix: str, start: Callable[[FakeDiscord, Path], Run], play: Callable[[Run], Awaitable[Any]]
) -> tuple[Any, float]:
    """Build a run in a scratch folder against a fresh fake Discord, play it, close it; return its report and
    how many seconds the play took."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        async with FakeDiscord() as fake:
            run = start(fake, Path(folder))
            started = time.monotonic()
            try:
                report = await play(run)
            finally:
                await run.close()
            return report, time.monotonic() - started


def print_report(report: Any, seconds: float) -> None:
    """Print a run's report, a field a line: a count, or a list's length then its first entries; problems last."""
    fields = asdict(report)
    problems = fields.pop("problems")
    for key, value in fields.items():
        if isinstance(value, list):
            print(f"{key:34} {len(value)}")
            for entry in value[:LISTED]:
                print(f"  {entry}")
        else:
            print(f"{key:34} {value}")
    print(f"{'seconds':34} {seconds:.1f}")
    print(f"{'problems':34} {len(problems)}")
    for problem in problems[:LISTED]:
        print(f"  {problem}")
