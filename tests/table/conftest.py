"""The table's harness: a bot serving the table against the fake Discord, fake OAuth2, and headless Chromium.

`floe_table` is a running bot whose table listens on a free port of 127.0.0.1 and exchanges codes at
`fake_oauth`; `browser` is Debian's Chromium driven by Playwright; `tests.table.browser.open_table` opens a
player's table in it inside a fake Discord parent frame (tests/table/fakes.py) at a viewport's size.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from bot import IceFloeBot
from tests.e2e.helpers_games import floe_settings_for, start_floe
from tests.harness import Driver, FakeDiscord
from tests.table.browser import chromium_path, launch
from tests.table.fakes import CLIENT_ID, CLIENT_SECRET, FakeOAuth

REQUIRE = "ICE_FLOE_REQUIRE_BROWSER"


@pytest_asyncio.fixture
async def fake_oauth() -> AsyncIterator[FakeOAuth]:
    """Serve Discord's OAuth2 token and user endpoints, faked, on 127.0.0.1."""
    oauth = FakeOAuth()
    await oauth.start()
    yield oauth
    await oauth.stop()


@pytest_asyncio.fixture
async def floe_table(driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path) -> IceFloeBot:
    """Start Ice Floe with its table on a free port, exchanging codes at the fake OAuth2 endpoints."""
    settings = replace(
        floe_settings_for(tmp_path, fake_discord),
        table_port=0,
        discord_client_id=CLIENT_ID,
        discord_client_secret=CLIENT_SECRET,
        discord_api=fake_oauth.url,
    )
    return await start_floe(driver, settings)


def table_url(bot: IceFloeBot) -> str:
    """Return the address the bot serves its table on."""
    assert bot.table is not None and bot.table.bound_port
    return f"http://127.0.0.1:{bot.table.bound_port}"


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    """Run headless Chromium (skipped when Debian's chromium is missing, unless ICE_FLOE_REQUIRE_BROWSER=1)."""
    if chromium_path() is None:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but /usr/bin/chromium is missing (apt-get install chromium)")
        pytest.skip("browser tests skipped: /usr/bin/chromium is missing (apt-get install chromium)")
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        yield chromium
        await chromium.close()
