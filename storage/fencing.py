"""Let only the owner of a shard do its owner-only work: a fencing token that every such write proves in SQL.

Each time a process takes its shards (storage/ownership.py) it writes a new, larger `epoch` into their
`shard_owners` rows: its fencing token. Work nobody asked for in an interaction (computer players, reminders
and timeouts, the board outbox) runs under `owner_work()`; on PostgreSQL each of its transactions first reads
this process's rows `FOR SHARE` with the token it holds. A successor's claim rewrites the epoch, so it waits
for those transactions to end and every later one finds no row: it raises FenceLost and changes nothing.
While the lease is in doubt (its connection ended, or a check went unanswered) the token is withdrawn at once,
so owner-only work stops before the server even answers. SQLite needs no token: one process per file.
"""

from __future__ import annotations

import contextvars
from collections.abc import Sequence

from storage.errors import StorageError

OWNER_WORK: contextvars.ContextVar[bool] = contextvars.ContextVar("owner_work", default=False)
"""True in a task doing work only the owner of the game's shard may do."""

PROVE = "SELECT shard FROM shard_owners WHERE shard = ANY(?::int[]) AND epoch = ? FOR SHARE"
"""Lock this process's `shard_owners` rows for the transaction, if they still carry its token."""


class FenceLost(StorageError):
    """Raise when this process no longer holds the shards it ran (or cannot tell right now); nothing was changed."""


def owner_work() -> None:
    """Mark the running task (and the tasks it starts) as doing owner-only work, fenced by the shard lease."""
    OWNER_WORK.set(True)


def in_owner_work() -> bool:
    """Tell whether the running task does owner-only work."""
    return OWNER_WORK.get()


class Fence:
    """Hold the fencing token of this process's shards while the lease is sure of them, else nothing."""

    def __init__(self) -> None:
        self.epoch: int | None = None
        self.shards: tuple[int, ...] = ()

    def grant(self, epoch: int, shards: Sequence[int]) -> None:
        """Hold the token a claim wrote for these shards."""
        self.epoch, self.shards = epoch, tuple(shards)

    def withdraw(self) -> None:
        """Drop the token: the lease may be lost, so no owner-only work may run until it is taken again."""
        self.epoch = None

    @property
    def held(self) -> bool:
        """Tell whether this process holds its token now."""
        return self.epoch is not None

    def proof(self) -> tuple[str, tuple[list[int], int]]:
        """Return the statement and arguments proving ownership in a transaction; raise FenceLost without a token."""
        if self.epoch is None:
            raise FenceLost("this process may have lost its shards; owner-only work waits until it holds them again")
        return PROVE, (list(self.shards), self.epoch)

    def check(self, found: int) -> None:
        """Raise FenceLost unless the proof found every shard's row."""
        if found != len(self.shards):
            self.withdraw()
            raise FenceLost("another process took over this process's shards")
