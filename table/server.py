"""Serve the table with aiohttp beside the bot: the page, the OAuth2 code exchange and the WebSocket of each table.

Routes: `GET /` and `GET /table/` (the page), `/table/static/` (its scripts), `GET /table/api/config` (the
application's client ID, which the SDK needs), `POST /table/api/token` (a code for a session) and
`GET /table/ws?session=…&channel=…` (the live table of that channel's game).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from engine.base import IllegalAction
from i18n import _
from i18n.commands import command_path
from i18n.context import using
from i18n.languages import from_discord
from storage.database import ACTIVE, FINISHED
from storage.errors import StorageError
from storage.table import newest_game_in
from table.auth import AuthFailed, DiscordOAuth
from table.hub import Hub, Watcher
from table.limits import SignIns, client_address, retry_after, too_many_sign_ins
from table.protocol import MAX_MESSAGE, NO_GAME_HERE, REFUSED, Move, ProtocolError, error_message, parse
from table.sessions import SessionRefused, Sessions
from table.strings import NO_GAME, NOT_SAVED, SIGN_IN_FAILED, SPECTATOR_TAP, TABLE_STALE
from ui.errors import UserError

if TYPE_CHECKING:
    from config import Settings
    from ui.flow import GameFlow
    from ui.moves import Commit

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"


class TableServer:
    """Serve one bot's tables until stopped."""

    def __init__(self, flow: GameFlow, settings: Settings, *, oauth: DiscordOAuth | None = None) -> None:
        self.flow = flow
        self.settings = settings
        self.host = settings.table_host
        self.port = settings.table_port or 0
        self.oauth = oauth or DiscordOAuth(
            settings.discord_api, settings.discord_client_id or "", settings.discord_client_secret or ""
        )
        self.sessions = Sessions(flow.db)
        self.sign_ins = SignIns(settings.limits)
        self.hub = Hub(flow.db, flow.loader)
        self._runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._hub_task: asyncio.Task[None] | None = None
        self.bound_port: int | None = None

    def app(self) -> web.Application:
        """Return the aiohttp application with every route."""
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.router.add_get("/", self.page)
        app.router.add_get("/table/", self.page)
        app.router.add_get("/table/api/config", self.config)
        app.router.add_post("/table/api/token", self.token)
        app.router.add_get("/table/ws", self.socket)
        app.router.add_static("/table/static/", STATIC, append_version=False)
        app.on_response_prepare.append(no_cache)
        return app

    async def start(self) -> None:
        """Listen on TABLE_HOST:TABLE_PORT and start pushing states."""
        self.flow.moves.saved.append(self.hub.saved)
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.bound_port = sockets[0].getsockname()[1] if sockets else self.port
        self._hub_task = asyncio.create_task(self.hub.run(), name="table-hub")
        log.info("the table is served on http://%s:%s/table/", self.host, self.bound_port)
        if self.settings.table_public_url:
            log.info("the Developer Portal's URL mapping should point at %s", self.settings.table_public_url)

    async def stop(self) -> None:
        """Close every table and stop listening."""
        if self.hub.saved in self.flow.moves.saved:
            self.flow.moves.saved.remove(self.hub.saved)
        if self._hub_task is not None:
            self._hub_task.cancel()
            await asyncio.gather(self._hub_task, return_exceptions=True)
        for watchers in list(self.hub.watchers.values()):
            for watcher in list(watchers):
                await watcher.ws.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def page(self, request: web.Request) -> web.FileResponse:
        """Serve the page."""
        return web.FileResponse(STATIC / "index.html")

    async def config(self, request: web.Request) -> web.Response:
        """Tell the page the application's client ID (the SDK's handshake names it)."""
        return web.json_response({"client_id": self.settings.discord_client_id})

    async def token(self, request: web.Request) -> web.Response:
        """Exchange the SDK's authorization code for a session bound to the user Discord names."""
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        locale = body.get("locale") if isinstance(body, dict) else None
        language = from_discord(locale) if isinstance(locale, str) and locale else None
        address = client_address(request.remote, request.headers.get("X-Forwarded-For"), self.settings.table_proxy_hops)
        wait = self.sign_ins.address(address)
        if wait > 0:
            log.info("table sign-ins from %s are over their limit", address)
            return refused_for(wait, language)
        if not isinstance(code, str) or not code or len(code) > 200:
            with using(language):
                return web.json_response({"message": _(SIGN_IN_FAILED)}, status=400)
        try:
            user = await self.oauth.user_for_code(code)
        except AuthFailed as exc:
            log.info("a table sign-in was refused: %s", exc)
            with using(language):
                return web.json_response({"message": _(SIGN_IN_FAILED)}, status=401)
        language = language or from_discord(user.locale)
        wait = self.sign_ins.user(user.id)
        if wait > 0:
            log.info("table sign-ins by user %s are over their limit", user.id)
            return refused_for(wait, language)
        session = await self.sessions.issue(user.id, user.name, language)
        return web.json_response({"session": session, "user": {"id": str(user.id), "name": user.name}})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        """Run one table: check its session, find its channel's game, send states and take its moves."""
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        try:
            session = await self.sessions.check(request.query.get("session"))
        except SessionRefused as exc:
            with using(from_discord(request.query.get("locale"))):
                await ws.send_json(error_message(None, str(exc)) | {"fatal": "session"})
            await ws.close(code=REFUSED)
            return ws
        with using(session.language):
            row = await self._game_of(request.query.get("channel", ""))
            if row is None:
                await ws.send_json(
                    error_message(None, _(NO_GAME, command=command_path("game new"))) | {"fatal": "game"}
                )
                await ws.close(code=NO_GAME_HERE)
                return ws
        watcher = Watcher(ws, session.user_id, session.language, row.id, row.channel_id)
        self.hub.join(watcher)
        try:
            await self._current(watcher)
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                await self._received(watcher, frame.data)
        finally:
            self.hub.leave(watcher)
        return ws

    async def _game_of(self, channel: str) -> Any:
        """Return a channel's game in progress, else its newest finished one (by the SDK's channel ID), or None.

        A lobby is no table yet (the finished game before it is shown, and followed once the lobby starts); a
        finished game shows its final table (a move on it is refused as over).
        """
        if not channel.isdigit() or len(channel) > 20:
            return None
        row = await self.flow.db.open_game_in(int(channel))
        if row is not None and row.status == ACTIVE:
            return row
        newest = await newest_game_in(self.flow.db, int(channel), FINISHED)
        return await self.flow.db.game(newest) if newest is not None else None

    async def _current(self, watcher: Watcher) -> None:
        """Send the current state, or say why the game cannot be shown."""
        try:
            await self.hub.current(watcher)
        except (ProtocolError, UserError) as exc:
            await watcher.send(error_message(None, str(exc)) | {"fatal": "game"})
            await watcher.ws.close(code=NO_GAME_HERE)

    async def _received(self, watcher: Watcher, text: str) -> None:
        """Handle one client message: a resume is answered at once, a move in a task of its own."""
        with using(watcher.language):
            try:
                message = parse(json.loads(text))
            except (ValueError, ProtocolError) as exc:
                await watcher.send(error_message(None, str(exc) if isinstance(exc, ProtocolError) else ""))
                return
            if not isinstance(message, Move):
                await self._current(watcher)
                return
        task = asyncio.create_task(self._move(watcher, message), name=f"table-move-{watcher.game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _move(self, watcher: Watcher, move: Move) -> None:
        """Play one tap's move through the turn flow; answer ack once saved, or the reason nothing changed."""
        with using(watcher.language):
            acked = False

            async def acknowledge(done: Commit) -> None:
                nonlocal acked
                acked = True
                await watcher.send({"type": "ack", "id": move.id, "version": done.board.version})

            try:
                row = await self.flow.db.game(watcher.game_id)
                if row is not None and watcher.seat(row) is None:
                    raise UserError(_(SPECTATOR_TAP))
                await self.flow.moves.play(
                    watcher.user_id,
                    watcher.game_id,
                    move.action,
                    expected_version=move.version,
                    stale=TABLE_STALE,
                    acknowledge=acknowledge,
                )
            except (UserError, IllegalAction) as exc:
                if not acked:
                    await watcher.send(error_message(move.id, str(exc)))
            except StorageError as exc:
                log.info("a table move in game %s was not saved: %s", watcher.game_id, exc)
                if not acked:
                    await watcher.send(error_message(move.id, _(NOT_SAVED)))
            except Exception:
                log.exception("a table move in game %s failed", watcher.game_id)
                if not acked:
                    await watcher.send(error_message(move.id, _(NOT_SAVED)))


def refused_for(wait_s: float, language: str | None) -> web.Response:
    """Refuse a sign-in over its limit: 429, Retry-After, and the sentence the page shows."""
    with using(language):
        message = too_many_sign_ins(wait_s)
    headers = {"Retry-After": str(retry_after(wait_s))}
    return web.json_response({"message": message}, status=429, headers=headers)


async def no_cache(request: web.Request, response: web.StreamResponse) -> None:
    """Let browsers revalidate the page and its scripts, so a new version of the bot is picked up at once."""
    with contextlib.suppress(Exception):
        response.headers.setdefault("Cache-Control", "no-cache")
