"""Count uses of public-posting and costly commands per user, channel and server, and say when they may come again.

Pure: no Discord, no I/O; the clock is given (monotonic seconds), so tests drive it. The cogs ask before they
post; what happens over a limit (a refusal, or a private answer instead of a public one) is theirs to decide.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence

from config import LimitSettings, Rate
from i18n import _, ngettext
from ui.mentions import command

PRUNE_EVERY = 1024
"""Forget the keys whose window has passed after this many uses."""


def too_many_lobbies(most: int) -> str:
    """Refuse one more lobby to a user who hosts `most` open ones in a server."""
    return _(
        "You already host as many open lobbies in this server as one player may ({most}). Start or cancel one of"
        " them first: {command} shows where they are.",
        most=most,
        command=command("game list"),
    )


def too_soon(wait_s: float) -> str:
    """Say, as a whole sentence, in how many seconds (rounded up) a limited command may be used again."""
    seconds = max(1, math.ceil(wait_s))
    # TRANSLATORS: "s" is the symbol of seconds.
    return ngettext("You can do this again in {n} s.", "You can do this again in {n} s.", seconds)


class Limiter:
    """Remember recent uses per key and allow a use only while every rate it falls under has room."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, most_keys: int | None = None) -> None:
        self.clock = clock
        self.most_keys = most_keys
        """Remember at most this many keys (None: any number); past it the least recently used are forgotten."""
        self._uses: dict[Hashable, deque[float]] = {}
        self._windows: dict[Hashable, float] = {}
        self._since_prune = 0

    def wait(self, checks: Sequence[tuple[Hashable, Rate | None]]) -> float:
        """Return how many seconds until a use is allowed under every (key, rate); 0.0 when it is allowed now."""
        now = self.clock()
        longest = 0.0
        for key, rate in checks:
            if rate is None:
                continue
            uses = self._uses.get(key)
            if not uses:
                continue
            while uses and uses[0] <= now - rate.per_s:
                uses.popleft()
            if len(uses) >= rate.uses:
                longest = max(longest, uses[len(uses) - rate.uses] + rate.per_s - now)
        return longest

    def take(self, checks: Sequence[tuple[Hashable, Rate | None]]) -> float:
        """Record a use under every key if all allow it now and return 0.0; else record nothing and return the wait."""
        wait = self.wait(checks)
        if wait > 0:
            return wait
        now = self.clock()
        for key, rate in checks:
            if rate is None:
                continue
            uses = self._uses.pop(key, None) or deque()
            uses.append(now)
            self._uses[key] = uses  # the most recently used key goes last: the bound forgets the others first
            self._windows[key] = max(self._windows.get(key, 0.0), rate.per_s)
        self._since_prune += 1
        if self._since_prune >= PRUNE_EVERY or (self.most_keys is not None and len(self._uses) > self.most_keys):
            self.prune()
        if self.most_keys is not None and len(self._uses) > self.most_keys:
            self.forget_least_recent(self.most_keys - self.most_keys // 8)
        return 0.0

    def forget_least_recent(self, keep: int) -> None:
        """Forget the least recently used keys until `keep` remain (the bound on memory under a flood of keys)."""
        for key in list(self._uses)[: max(0, len(self._uses) - keep)]:
            del self._uses[key]
            del self._windows[key]

    def give_back(self, keys: Sequence[Hashable]) -> None:
        """Forget the newest use under each key: it was refused after all and posted nothing."""
        for key in keys:
            uses = self._uses.get(key)
            if uses:
                uses.pop()

    def prune(self) -> None:
        """Forget every key whose newest use is older than its longest window."""
        now = self.clock()
        for key in [k for k, uses in self._uses.items() if not uses or uses[-1] <= now - self._windows[k]]:
            del self._uses[key]
            del self._windows[key]
        self._since_prune = 0

    def __len__(self) -> int:
        return len(self._uses)


class Limits:
    """Apply the configured rates to the bot's commands, keyed by what they are and who asks where."""

    def __init__(self, settings: LimitSettings | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings or LimitSettings()
        self.limiter = Limiter(clock)

    def public(self, command: str, user_id: int, channel_id: int) -> float:
        """Take a public post of `command` by a user in a channel; return 0.0, or the seconds to wait."""
        s = self.settings
        return self.limiter.take(
            [((command, "user", user_id), s.per_user), ((command, "channel", channel_id), s.per_channel)]
        )

    def lobby_note(self, user_id: int) -> float:
        """Take a public lobby note ("X joined."), limited per user only: seats already bound a lobby's joins."""
        return self.limiter.take([(("lobby", "user", user_id), self.settings.per_user)])

    def private(self, command: str, user_id: int) -> float:
        """Take a costly private answer (a picture drawn for one user); return 0.0, or the seconds to wait."""
        return self.limiter.take([((command, "user", user_id), self.settings.per_user)])

    def give_back_new(self, user_id: int, channel_id: int, guild_id: int, *, thread: bool) -> None:
        """Give back a /game new (with or without a thread) that was refused after its use was taken."""
        keys: list[Hashable] = [("new", "user", user_id), ("new", "channel", channel_id)]
        if thread:
            keys += [("thread", "user", user_id), ("thread", "guild", guild_id)]
        self.limiter.give_back(keys)

    def thread(self, user_id: int, channel_id: int, guild_id: int) -> float:
        """Take a new game thread (also a public post in the channel); return 0.0, or the seconds to wait."""
        s = self.settings
        return self.limiter.take(
            [
                (("new", "user", user_id), s.per_user),
                (("new", "channel", channel_id), s.per_channel),
                (("thread", "user", user_id), s.threads_per_user),
                (("thread", "guild", guild_id), s.threads_per_server),
            ]
        )
