"""Issue and check the table's session tokens: random, stored server-side as a hash, bound to one user, expiring."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable

from i18n import _
from storage.database import Database
from storage.table import TableSession, find_session, forget_expired, save_session

SESSION_S = 12 * 3600.0
"""How long a session lasts; after that the page asks Discord to authorize again."""


class SessionRefused(Exception):
    """A session token that is unknown (forged) or past its expiry."""


def token_hash(token: str) -> str:
    """Return the hash a token is stored under (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Sessions:
    """Bind tokens to the users who authorized the Activity; any process sharing the database can check them."""

    def __init__(self, db: Database, *, lifetime: float = SESSION_S, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.lifetime = lifetime
        self.clock = clock

    async def issue(self, user_id: int, name: str, language: str) -> str:
        """Store a new session for a user and return its token."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        await forget_expired(self.db, now)
        await save_session(self.db, token_hash(token), TableSession(user_id, name, language, now + self.lifetime))
        return token

    async def check(self, token: str | None) -> TableSession:
        """Return the session a token stands for; raise SessionRefused for a forged or expired one."""
        if not token or len(token) > 200:
            raise SessionRefused(_("This table session is not valid: close the table and open it again."))
        session = await find_session(self.db, token_hash(token))
        if session is None:
            raise SessionRefused(_("This table session is not valid: close the table and open it again."))
        if session.expires_at <= self.clock():
            raise SessionRefused(_("This table session has expired: close the table and open it again."))
        return session
