"""Load one game's table module in Chromium with the engine behind it: each tapped move is applied at once (hot seat).

No bot, no WebSocket: the page's `ctx.send` hands the action to the engine through Playwright, and the table of the
seat to act next is drawn. What the page draws, what a tap sends and the size checks are the real module's.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.base import IllegalAction
from i18n import using
from tests.table.browser import CHROMIUM, chromium_path
from tests.table.conftest import REQUIRE

STATIC = Path(__file__).resolve().parents[2] / "table" / "static"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
PHONE = (390, 844)
DESKTOP = (1280, 800)
BAR = 96
"""The top bar's height in CSS px on a phone (status, prompt and a row of seats), left to the board below it."""

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>html,body{margin:0;height:100%;overflow:hidden;font-family:system-ui,sans-serif;font-size:14px}
#bar{height:BARpx;background:#102a43}#board{position:absolute;top:BARpx;left:0;right:0;bottom:0;overflow:hidden}
#board>*{position:absolute;inset:0}</style></head>
<body><div id="bar"></div><main id="board"></main><script type="module">
import { render } from "/games/KIND.js";
window.sent = [];
window.refusals = [];
function draw(message) {
  const root = document.getElementById("board");
  root.replaceChildren();
  const ctx = { seat: message.seat, t: (k) => k, palette: [], letters: [], strings: {},
    send: async (action) => {
      window.sent.push(action);
      const answer = await window.__move(action);
      if (!answer.ok) { window.refusals.push(answer.message); throw answer.message; }
      setTimeout(() => draw(answer), 0);
      return answer;
    } };
  render(root, message.table, ctx);
  window.drawn = (window.drawn || 0) + 1;
}
window.draw = draw;
draw(window.FIRST);
</script></body></html>""".replace("BAR", str(BAR))

AUDIT = """() => {
  const problems = [];
  const vw = innerWidth, vh = innerHeight;
  const doc = document.documentElement;
  if (doc.scrollWidth > vw || doc.scrollHeight > vh) {
    problems.push(`the page scrolls: ${doc.scrollWidth}x${doc.scrollHeight}`);
  }
  const screen = { left: 0, top: 0, right: vw, bottom: vh };
  const clipper = (el) => el.parentElement && el.parentElement.closest("[data-stage], .tb-scroll");
  const clipOf = (el) => { const c = clipper(el); return c ? c.getBoundingClientRect() : screen; };
  const meets = (r, c) => r.width > 0 && r.height > 0 && r.right > c.left + 1 && r.left < c.right - 1
    && r.bottom > c.top + 1 && r.top < c.bottom - 1;
  const name = (el) => `${el.tagName}.${el.getAttribute("class") || ""}[${el.textContent.trim().slice(0, 24)}]`;
  const root = document.getElementById("board");
  for (const el of root.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (!clipper(el) && meets(r, screen) && (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1)) {
      problems.push(`outside the viewport: ${name(el)} ${JSON.stringify(r)}`);
    }
  }
  for (const el of root.querySelectorAll("[data-tap]")) {
    const r = el.getBoundingClientRect();
    if (meets(r, clipOf(el)) && (r.width < 43.5 || r.height < 43.5)) {
      problems.push(`tap target under 44 px: ${name(el)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  for (const el of root.querySelectorAll("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest("title")) continue;
    const r = el.getBoundingClientRect();
    if (!meets(r, clipOf(el))) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < 11.95) problems.push(`text under 12 px: ${name(el)} ${size.toFixed(1)}`);
  }
  return problems;
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    """Serve files without logging each request."""

    def log_message(self, format: str, *args: Any) -> None:
        """Log nothing."""


@contextmanager
def static_server() -> Iterator[str]:
    """Serve table/static on a free local port; yield its base URL."""
    handler = functools.partial(Quiet, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class HotSeat:
    """Hold one game played in a page: the engine state, whose table is shown, and every move applied."""

    def __init__(self, game: Any, view: Callable[..., dict[str, Any]], state: Any, names: list[str], language: str):
        self.game = game
        self.view = view
        self.state = state
        self.names = names
        self.language = language
        self.last: list[dict[str, Any]] | None = None
        self.moves = 0

    def seat(self) -> int | None:
        """Return the seat whose table is shown: the first the game waits for."""
        seats = self.game.to_act(self.state)
        return seats[0] if seats else None

    def message(self) -> dict[str, Any]:
        """Return what the page draws now: the seat to act's table."""
        seat = self.seat()
        shown = seat if seat is not None else 0
        with using(self.language):
            table = self.view(self.game, self.state, shown, self.names, self.last)
        return {"seat": shown, "table": json.loads(json.dumps(table))}

    def move(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply a tapped action for the seat shown; answer the next table, or the refusal."""
        seat = self.seat()
        try:
            with using(self.language):
                events = self.game.apply(self.state, seat, action)
        except IllegalAction as exc:
            return {"ok": False, "message": str(exc)}
        self.last = [e.to_json() for e in events]
        self.moves += 1
        return {"ok": True, **self.message()}


def need_chromium() -> None:
    """Skip when Debian's Chromium is missing (fail instead when ICE_FLOE_REQUIRE_BROWSER=1, as in CI)."""
    if chromium_path() is None:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but {CHROMIUM} is missing (apt-get install chromium)")
        pytest.skip(f"browser tests skipped: {CHROMIUM} is missing (apt-get install chromium)")


@contextmanager
def opened(playwright: Any, base: str, kind: str, hot: HotSeat, size: tuple[int, int]) -> Iterator[Any]:
    """Open a page of `size` CSS px showing `hot`'s game; yield it."""
    need_chromium()
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        page = browser.new_page(viewport={"width": size[0], "height": size[1]}, has_touch=True)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.expose_function("__move", hot.move)
        page.route("**/__hotseat.html", lambda route: route.fulfill(body=PAGE.replace("KIND", kind),
                                                                     content_type="text/html"))  # fmt: skip
        page.add_init_script(f"window.FIRST = {json.dumps(hot.message())};")
        page.goto(f"{base}/__hotseat.html")
        page.wait_for_function("window.drawn >= 1")
        page.errors = errors  # type: ignore[attr-defined]
        yield page
    finally:
        browser.close()


def audit(page: Any) -> list[str]:
    """Return what breaks the phone rules on the page now: targets under 44 px, text under 12 px, overflow."""
    return list(page.evaluate(AUDIT))


def tap(page: Any, selector: str) -> None:
    """Tap the first element `selector` finds, as a finger would."""
    page.locator(selector).first.tap(timeout=5000)


def tap_to_move(page: Any, selector: str) -> None:
    """Tap the element that sends a move, then wait until the page has drawn the table that follows."""
    before = page.evaluate("window.drawn")
    tap(page, selector)
    page.wait_for_function("n => window.drawn > n", arg=before, timeout=5000)
