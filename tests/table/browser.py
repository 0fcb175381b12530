"""Drive tables in headless Chromium (Debian's /usr/bin/chromium through Playwright, never a downloaded browser)."""

from __future__ import annotations

import io
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.async_api import Browser, Frame, Page, Playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.table.fakes import FakeAccount, FakeOAuth, parent_page

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
    "--mute-audio",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WAIT_MS = 10_000
SHOWN = """v => {
  const state = window.iceFloeTable && window.iceFloeTable.state;
  const board = document.getElementById("board");
  return !!state && state.version >= v && !!board && board.dataset.version === String(state.version);
}"""

LAYOUT_PROBLEMS = "\n".join(
    line for line in Path(__file__).with_name("layout.js").read_text().splitlines() if not line.startswith("//")
).strip()


def chromium_path() -> str | None:
    """Return Debian's Chromium, if it is installed."""
    return CHROMIUM if shutil.which(CHROMIUM) else None


async def launch(playwright: Playwright) -> Browser:
    """Start headless Chromium."""
    return await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)


@dataclass
class Table:
    """One player's table: the Discord-like parent page and the Activity's frame inside it."""

    page: Page
    account: FakeAccount
    errors: list[str] = field(default_factory=list)
    """Uncaught script errors and console errors of the page and its frames, in order."""

    @property
    def frame(self) -> Frame:
        """Return the Activity's frame."""
        frame = self.page.frames[1] if len(self.page.frames) > 1 else None
        assert frame is not None, "the Activity's frame is not there"
        return frame

    async def state(self) -> dict[str, Any] | None:
        """Return the newest state the page received."""
        script = "() => window.iceFloeTable && window.iceFloeTable.state"
        result: dict[str, Any] | None = await self.frame.evaluate(script)
        return result

    async def wait_version(self, version: int) -> dict[str, Any]:
        """Wait until the board is drawn for this version or a newer one; return its state."""
        try:
            await self.frame.wait_for_function(SHOWN, arg=version, timeout=WAIT_MS)
        except PlaywrightTimeout:
            drawn, held = await self.versions()
            raise AssertionError(
                f"version {version} was not drawn: the board shows {drawn} of {held}; page errors: {self.errors}"
            ) from None
        state = await self.state()
        assert state is not None
        return state

    async def versions(self) -> tuple[str | None, int | None]:
        """Return the version the board was last drawn for and the newest version the page received."""
        script = """() => [
          (document.getElementById("board") || {dataset: {}}).dataset.version || null,
          window.iceFloeTable && window.iceFloeTable.state ? window.iceFloeTable.state.version : null,
        ]"""
        drawn, held = await self.frame.evaluate(script)
        return drawn, held

    async def tap(self, tile: str) -> None:
        """Tap a tile of the board."""
        await self.frame.locator(f'[data-tile="{tile}"]').click(timeout=WAIT_MS)

    async def toast(self) -> str:
        """Wait for the page's message to a player and return it."""
        box = self.frame.locator("#toast")
        await box.wait_for(state="visible", timeout=WAIT_MS)
        return (await self.frame.locator("#toast-text").text_content() or "").strip()

    async def close_toast(self) -> None:
        """Dismiss the message."""
        await self.frame.locator("#toast-close").click(timeout=WAIT_MS)

    async def layout_problems(self) -> list[str]:
        """Return what is outside the viewport, any tap target under 44 px and any text under 12 px."""
        problems: list[str] = await self.frame.evaluate(LAYOUT_PROBLEMS)
        return problems

    async def screenshot(self, path: str | None = None) -> Image.Image:
        """Take a screenshot of the whole viewport (saved to `path` if given)."""
        data = await self.page.screenshot(path=path)
        return Image.open(io.BytesIO(data))


async def open_table(
    browser: Browser,
    oauth: FakeOAuth,
    account: FakeAccount,
    table_url: str,
    channel_id: int,
    guild_id: int,
    *,
    viewport: dict[str, int] = PHONE,
    locale: str = "en-US",
) -> Table:
    """Open the Activity for an account as Discord would: the parent frame at the table's origin, the SDK inside."""
    context = await browser.new_context(viewport=viewport, device_scale_factor=1, has_touch=viewport == PHONE)
    page = await context.new_page()
    html = parent_page(oauth.code_for(account), channel_id, guild_id, locale)

    async def serve_parent(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    table = Table(page, account)
    page.on("pageerror", lambda error: table.errors.append(f"{error.name}: {error.message}\n{error.stack}"))
    page.on("console", lambda message: table.errors.append(message.text) if message.type == "error" else None)
    await page.route(f"{table_url}/discord-client/**", serve_parent)
    await page.goto(f"{table_url}/discord-client/activity")
    await page.wait_for_function("() => window.frames.length > 0")
    await table.frame.wait_for_function(
        "() => window.iceFloeTable && (window.iceFloeTable.state || window.iceFloeTable.stopped)", timeout=WAIT_MS
    )
    return table
