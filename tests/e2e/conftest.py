"""Fixtures every end-to-end test module shares: settings for a fresh bot and a clock the test controls."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import Settings
from tests.clock import Clock
from tests.e2e.helpers_games import floe_settings_for
from tests.harness import FakeDiscord


@pytest.fixture
def floe_settings(tmp_path: Path, fake_discord: FakeDiscord) -> Settings:
    """Return settings for a bot on a fresh database file, syncing commands to the fake guild."""
    return floe_settings_for(tmp_path, fake_discord)


@pytest.fixture
def clock() -> Clock:
    """Return a clock the test controls."""
    return Clock()
