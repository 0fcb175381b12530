"""Let a player's move wait longer for a pooled database connection than a read nobody needs after 3 s.

A read answering an interaction not yet acknowledged (autocomplete, above all) is worthless once Discord's 3 s
have passed, so it waits at most ACQUIRE_TIMEOUT_S for a free connection and then says "busy". A move is
acknowledged at the latest ACK_WITHIN_S after Discord sent it whatever the database does (ui/moves.py, its
answer promised first), so in a burst it may wait MOVE_ACQUIRE_TIMEOUT_S for a connection rather than be refused
while a connection frees up a moment later. Each wait stays bounded: a move that cannot be saved soon is refused.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

ACQUIRE_TIMEOUT_S = 1.0
"""How long a query waits for a free pooled connection (pool exhausted) before the player is told "busy"."""
MOVE_ACQUIRE_TIMEOUT_S = 2.0
"""How long a move's queries wait for one (see the module docstring)."""

PATIENT: contextvars.ContextVar[bool] = contextvars.ContextVar("patient", default=False)


@contextlib.contextmanager
def patient() -> Iterator[None]:
    """Let the queries of the block (a move's) wait MOVE_ACQUIRE_TIMEOUT_S for a pooled connection."""
    token = PATIENT.set(True)
    try:
        yield
    finally:
        PATIENT.reset(token)


def acquire_timeout() -> float:
    """Return how long the current query may wait for a pooled connection."""
    return MOVE_ACQUIRE_TIMEOUT_S if PATIENT.get() else ACQUIRE_TIMEOUT_S
