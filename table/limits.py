"""Limit the table's sign-ins (OAuth2 code exchanges) per client address and per Discord user, in bounded memory."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from config import LimitSettings
from i18n import ngettext
from ui.limits import Limiter

MOST_KEYS = 10_000
"""The most addresses and users remembered at once; past it the least recently seen are forgotten."""


def too_many_sign_ins(wait_s: float) -> str:
    """Say, as a whole sentence, how many seconds (rounded up) to wait before opening the table again."""
    seconds = retry_after(wait_s)
    return ngettext(
        "The table was opened too many times in a short while: wait {n} second, then open it again.",
        "The table was opened too many times in a short while: wait {n} seconds, then open it again.",
        seconds,
    )


def retry_after(wait_s: float) -> int:
    """Return a wait as the whole seconds of a Retry-After header (at least 1)."""
    return max(1, math.ceil(wait_s))


def client_address(peer: str | None, forwarded_for: str | None, hops: int) -> str:
    """Return the address a request came from: the socket's peer, or the one `hops` trusted proxies recorded.

    Each trusted proxy appends the address that connected to it to X-Forwarded-For, so the client is the
    `hops`-th entry from the right; anything further left was written by the client itself and is never read.
    """
    if hops <= 0 or not forwarded_for:
        return peer or "unknown"
    entries = [entry.strip() for entry in forwarded_for.split(",") if entry.strip()]
    if not entries:
        return peer or "unknown"
    return entries[-min(hops, len(entries))]


class SignIns:
    """Count sign-ins per address (before Discord is asked) and per user (once Discord named them)."""

    def __init__(
        self,
        settings: LimitSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        most_keys: int = MOST_KEYS,
    ) -> None:
        self.settings = settings or LimitSettings()
        self.limiter = Limiter(clock, most_keys=most_keys)

    def address(self, address: str) -> float:
        """Take a sign-in attempt from an address; return 0.0, or the seconds to wait."""
        return self.limiter.take([(("address", address), self.settings.sign_ins_per_address)])

    def user(self, user_id: int) -> float:
        """Take a sign-in by a user Discord named; return 0.0, or the seconds to wait."""
        return self.limiter.take([(("user", user_id), self.settings.sign_ins_per_user)])

    def __len__(self) -> int:
        return len(self.limiter)
