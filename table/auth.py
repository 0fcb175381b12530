"""Exchange the Activity's OAuth2 code at Discord's token endpoint and read who authorized it from /users/@me."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

TIMEOUT_S = 10.0


class AuthFailed(Exception):
    """Discord refused the code, or could not be reached."""


@dataclass(frozen=True)
class DiscordUser:
    """Who authorized the Activity, as Discord says with that user's own access token."""

    id: int
    name: str
    locale: str | None


class DiscordOAuth:
    """Talk to Discord's OAuth2 endpoints with the application's client ID and secret."""

    def __init__(self, api: str, client_id: str, client_secret: str) -> None:
        self.api = api.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret

    async def user_for_code(self, code: str) -> DiscordUser:
        """Exchange an authorization code for an access token and return the user it belongs to."""
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_S)
        async with aiohttp.ClientSession(timeout=timeout) as http:
            form = {
                "client_id": self.client_id,
                "client_secret": self.client_secret,
                "grant_type": "authorization_code",
                "code": code,
            }
            token = await self._json(http.post(f"{self.api}/oauth2/token", data=form), "token exchange")
            access = token.get("access_token")
            if not isinstance(access, str) or not access:
                raise AuthFailed("the token endpoint gave no access token")
            headers = {"Authorization": f"Bearer {access}"}
            user = await self._json(http.get(f"{self.api}/users/@me", headers=headers), "user lookup")
        user_id = str(user.get("id", ""))
        if not user_id.isdigit():
            raise AuthFailed("/users/@me gave no user id")
        name = str(user.get("global_name") or user.get("username") or user_id)
        locale = user.get("locale")
        return DiscordUser(int(user_id), name, locale if isinstance(locale, str) else None)

    async def _json(self, request: Any, what: str) -> dict[str, Any]:
        """Await a request and return its JSON object; raise AuthFailed on any failure."""
        try:
            async with request as response:
                if response.status != 200:
                    raise AuthFailed(f"{what}: Discord answered {response.status}")
                body = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise AuthFailed(f"{what}: {exc}") from exc
        if not isinstance(body, dict):
            raise AuthFailed(f"{what}: not a JSON object")
        return body
