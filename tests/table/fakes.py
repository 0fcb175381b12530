"""Fake Discord for the table: OAuth2 token and /users/@me endpoints, and the parent frame an Activity runs in.

The parent frame speaks the Embedded App SDK's postMessage protocol as Discord's client does: it answers the
SDK's HANDSHAKE (opcode 0) with a READY dispatch (opcode 1, FRAME), then answers FRAME commands by nonce:
AUTHORIZE with the code it was given, USER_SETTINGS_GET_LOCALE with its locale, anything else with an ERROR.
It refuses a handshake whose client_id or frame_id is wrong (opcode 2, CLOSE), like Discord.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web

CLIENT_ID = "1234567890"
CLIENT_SECRET = "fake-client-secret"
FRAME_ID = "frame-7f3a"


@dataclass
class FakeAccount:
    """A Discord user the fake OAuth2 server knows."""

    id: int
    username: str
    locale: str = "en-US"


@dataclass
class FakeOAuth:
    """Discord's OAuth2 token endpoint and /users/@me, on 127.0.0.1."""

    codes: dict[str, FakeAccount] = field(default_factory=dict)
    tokens: dict[str, FakeAccount] = field(default_factory=dict)
    exchanges: list[dict[str, str]] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None

    def code_for(self, account: FakeAccount) -> str:
        """Return a fresh one-time authorization code for an account (what AUTHORIZE gives the page)."""
        code = secrets.token_hex(8)
        self.codes[code] = account
        return code

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application()
        app.router.add_post("/oauth2/token", self.token)
        app.router.add_get("/users/@me", self.me)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()

    async def token(self, request: web.Request) -> web.Response:
        """Exchange a code once, for the application's own client ID and secret only."""
        form = dict(await request.post())
        self.exchanges.append({k: str(v) for k, v in form.items()})
        if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        account = self.codes.pop(str(form.get("code")), None)
        if form.get("grant_type") != "authorization_code" or account is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = secrets.token_hex(12)
        self.tokens[access] = account
        return web.json_response(
            {"access_token": access, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"}
        )

    async def me(self, request: web.Request) -> web.Response:
        """Return the user an access token belongs to."""
        scheme, _space, access = request.headers.get("Authorization", "").partition(" ")
        account = self.tokens.get(access) if scheme == "Bearer" else None
        if account is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(
            {
                "id": str(account.id),
                "username": account.username,
                "global_name": account.username.title(),
                "discriminator": "0",
                "locale": account.locale,
            }
        )


def parent_page(code: str, channel_id: int, guild_id: int, locale: str = "en-US", platform: str = "mobile") -> str:
    """Return the HTML of Discord's side of an Activity: an iframe of the table and the SDK's RPC answers."""
    settings = json.dumps(
        {"code": code, "locale": locale, "clientId": CLIENT_ID, "frameId": FRAME_ID, "channelId": str(channel_id)}
    )
    query = f"frame_id={FRAME_ID}&instance_id=i-1&platform={platform}&channel_id={channel_id}&guild_id={guild_id}"
    return PARENT_HTML.replace("__SETTINGS__", settings).replace("__QUERY__", query)


PARENT_HTML = (Path(__file__).with_name("parent.html")).read_text()
"""Discord's side of an Activity, with __SETTINGS__ and __QUERY__ filled in by `parent_page`."""
