"""Hold one lock per game while it is in use, and forget it as soon as nobody holds or waits for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class GameLocks:
    """Serialise the changes to each game; the table only holds games being changed right now."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    @asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        """Hold a game's lock; the last task to let go of it removes it, so ended or idle games keep none."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        self._users[game_id] = self._users.get(game_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[game_id] -= 1
            if not self._users[game_id]:
                del self._users[game_id]
                del self._locks[game_id]

    def __len__(self) -> int:
        """Return how many games have a lock now."""
        return len(self._locks)
