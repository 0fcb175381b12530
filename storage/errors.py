"""Name what can go wrong with the database, tell passing blips from lasting outages, and log each outage once.

Every driver error a query can raise is turned into one of these before it leaves storage/:
- `DatabaseBusy`: another writer held a lock, a statement ran past its timeout, or no pooled connection was
  free in time; the player is told the database is busy and nothing was changed.
- `DatabaseUnavailable`: the server is unreachable, restarting or refusing connections, the disk is full or
  the database read-only; the player is told the bot cannot save games right now and nothing was changed.
`Outage` logs one ERROR per outage and one WARNING when it answers again, whatever the number of interactions
in between: at once for a lasting failure (a full disk), but for a blip worth retrying (a connection lost)
only once the database has kept failing for OUTAGE_AFTER_S, so a blip that retries away logs WARNINGs, never
an ERROR; and it counts failures by kind for the metrics.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections import Counter

from i18n import N_, _
from i18n.commands import command_path

log = logging.getLogger("storage")

BUSY_TIMEOUT_MS = 1500
"""How long a write waits for another writer's lock: well inside Discord's 3 s to acknowledge an interaction."""
BUSY_TEXT = N_("The game's database is busy right now, so nothing was changed. Please try again in a moment.")
UNAVAILABLE_TEXT = N_("The bot cannot save games right now, so nothing was changed. Please try again in a few minutes.")
UNKNOWN_TEXT = N_(
    "The connection to the game's database broke while saving, so the bot cannot tell whether that was saved. "
    "Please check the game with `{command}` before trying again."
)


class StorageError(Exception):
    """Raise when the database refuses a change."""


class IntegrityError(StorageError):
    """Raise when a change breaks a unique or foreign-key constraint."""


class DatabaseBusy(StorageError):
    """Raise when another writer held the database longer than a player can wait; nothing was changed."""


class DatabaseUnavailable(StorageError):
    """Raise when the database cannot be reached or cannot store anything now; nothing was changed."""

    def __init__(self, cause: str, *, transient: bool = False, text: str = UNAVAILABLE_TEXT) -> None:
        super().__init__(_(text, command=command_path("game status")))
        self.cause = cause
        self.transient = transient
        """True for a blip worth retrying at once (connection lost, server restarting, serialization failure)."""


class CommitUnknown(DatabaseUnavailable):
    """Raise when the connection broke after COMMIT was sent: the change may or may not have been saved."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause, transient=True, text=UNKNOWN_TEXT)


SQLITE_UNAVAILABLE = ("disk is full", "readonly database", "unable to open", "disk i/o error")
PG_TRANSIENT = (
    "ConnectionDoesNotExistError",
    "ConnectionFailureError",
    "ClientCannotConnectError",
    "CannotConnectNowError",
    "AdminShutdownError",
    "CrashShutdownError",
    "SerializationError",
    "DeadlockDetectedError",
    "TooManyConnectionsError",
    "InternalClientError",  # a connection cut in the middle of an operation
)
PG_UNAVAILABLE = ("DiskFullError", "InsufficientResourcesError", "ReadOnlySQLTransactionError", "OutOfMemoryError")


def describe(error: BaseException) -> str:
    """Return an error's class and message on one line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def classify(error: BaseException) -> StorageError | None:
    """Return the StorageError a driver error means for a player, or None for a bug of ours."""
    if isinstance(error, StorageError):
        return error
    name = type(error).__name__
    text = str(error).lower()
    if isinstance(error, sqlite3.OperationalError):
        if "locked" in text or "busy" in text:
            return DatabaseBusy(_(BUSY_TEXT))
        if any(part in text for part in SQLITE_UNAVAILABLE):
            return DatabaseUnavailable(describe(error))
        return None
    if name in ("LockNotAvailableError", "QueryCanceledError"):  # lock_timeout, statement_timeout
        return DatabaseBusy(_(BUSY_TEXT))
    if name in PG_TRANSIENT:
        return DatabaseUnavailable(describe(error), transient=True)
    if name in PG_UNAVAILABLE:
        return DatabaseUnavailable(describe(error))
    if name == "InterfaceError" and any(word in text for word in ("closed", "closing", "released", "connection")):
        return DatabaseUnavailable(describe(error), transient=True)
    if isinstance(error, TimeoutError):  # no pooled connection became free in time
        return DatabaseBusy(_(BUSY_TEXT))
    if isinstance(error, ConnectionError | OSError):  # refused, reset, no route: the server is not there
        return DatabaseUnavailable(describe(error), transient=True)
    return None


OUTAGE_AFTER_S = 2.0
"""How long transient failures must go on before they are an outage worth an ERROR (and an operator's page)."""


class Outage:
    """Track whether the database answers; log the first failure of an outage and the recovery, once each."""

    def __init__(self) -> None:
        self.since: float | None = None
        """time.monotonic() of the first failure of the current outage; None while the database answers."""
        self.failures = 0
        self.errors: Counter[str] = Counter()
        """How many operations failed, by kind ("unavailable", "busy"), since start-up (for the metrics)."""
        self.outages = 0
        self.by_write = False
        """True when a write failed during this outage: then only a write that succeeds ends it."""
        self.busy_since: float | None = None
        """time.monotonic() of the first write refused as busy since the last write that went through, or None."""
        self.announced = False
        """True once this outage was logged as an ERROR."""
        self.after = OUTAGE_AFTER_S
        self._timer: asyncio.TimerHandle | None = None

    @property
    def down(self) -> bool:
        """Return True while the database is failing."""
        return self.since is not None

    def failed(self, error: StorageError, *, write: bool) -> None:
        """Count a failed operation; log one ERROR per outage (a blip's first failures are only WARNINGs)."""
        if isinstance(error, DatabaseBusy):
            self.errors["busy"] += 1
            if write and self.busy_since is None:
                self.busy_since = time.monotonic()  # reads may still answer while every write waits in vain
            return
        if not isinstance(error, DatabaseUnavailable):
            return
        self.errors["unavailable"] += 1
        self.failures += 1
        self.by_write = self.by_write or write
        now = time.monotonic()
        if self.since is None:
            self.since = now
            self.outages += 1
            if error.transient:
                log.warning("the database failed (%s); trying again", error.cause)
                self._announce_later(error.cause)
                return
        if not error.transient or now - self.since >= self.after:
            self._announce(error.cause)

    def _announce_later(self, cause: str) -> None:
        """Log the outage's ERROR in `after` seconds should the database still fail then, with no failure needed."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: a failure after `after` seconds announces it
            return
        self._timer = loop.call_later(self.after, self._announce, cause)

    def _announce(self, cause: str) -> None:
        """Log the ERROR of the current outage, once."""
        if self.announced or self.since is None:
            return
        self.announced = True
        log.error(
            "the database is unavailable (%s): players are told nothing was changed until it answers again", cause
        )

    def ok(self, *, write: bool) -> None:
        """Note that the database answered; end the current outage (one WARNING) if there was one.

        A read that works does not end an outage of writes (a full disk or a read-only file still reads).
        """
        if write:
            self.busy_since = None
        if self.since is None or (self.by_write and not write):
            return
        log.warning(
            "the database answers again after %.1f s; %d operations failed meanwhile",
            time.monotonic() - self.since,
            self.failures,
        )
        self.since, self.failures, self.by_write, self.announced = None, 0, False, False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


RETRY_DELAYS = (0.05, 0.25, 0.6)
"""Pauses between the attempts of a read, a connection or a version-guarded move retried after a blip."""

RESUME_BACKOFF_S = (0.5, 4.0)
"""First and longest pause before background work (computer players, the outbox) tries the database again."""


def resume_delay(attempt: int) -> float:
    """Return how long background work waits after its `attempt`-th failure in a row (doubling, bounded)."""
    first, longest = RESUME_BACKOFF_S
    return min(longest, first * 2 ** max(0, attempt - 1))
