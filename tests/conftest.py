"""Shared fixtures: the fake Discord acceptance-test harness (tests/harness)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest_asyncio

from tests.harness import Driver, FakeDiscord

# Worker threads start instantly; production bots draw and think in worker processes instead.
os.environ.setdefault("ICE_FLOE_WORKERS", "thread")


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
