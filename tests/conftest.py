"""Shared fixtures: the fake Discord acceptance-test harness (tests/harness) and a throwaway PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.harness import Driver, FakeDiscord
from tests.postgres import REQUIRE, PostgresServer, PostgresUnavailable, start_server
from ui.mentions import remember

# Worker threads start instantly; production bots draw and think in worker processes instead.
os.environ.setdefault("ICE_FLOE_WORKERS", "thread")
_postgres_skipped: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say in one line why the PostgreSQL tests were skipped."""
    if _postgres_skipped:
        terminalreporter.write_line(f"NOTICE: PostgreSQL tests skipped: {_postgres_skipped[0]}", yellow=True)


@pytest.fixture(autouse=True)
def unsynced_commands() -> Iterator[None]:
    """Start and end every test with no slash-command ids known: messages name commands by path until a sync."""
    remember({})
    yield
    remember({})


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """Serve a fake Discord on 127.0.0.1 with discord.py pointed at it; fail on any problem it saw."""
    async with FakeDiscord() as fake:
        yield fake
    fake.check()


@pytest_asyncio.fixture
async def driver(fake_discord: FakeDiscord) -> AsyncIterator[Driver]:
    """Drive bots through the fake Discord; stop them afterwards and fail if they logged errors."""
    harness_driver = Driver(fake_discord)
    harness_driver.capture_errors()
    try:
        yield harness_driver
    finally:
        await harness_driver.stop_all()
        harness_driver.release_errors()
    harness_driver.check()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """Run one throwaway PostgreSQL server for the whole session; skip (or fail in CI) when there is none."""
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but {exc}")
        _postgres_skipped.append(str(exc))
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Return an empty database's DATABASE_URL, once for SQLite and once for PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.fresh_url()


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """Return the DATABASE_URL of an empty database on the throwaway PostgreSQL server."""
    return postgres.fresh_url()
