"""Draw pictures in the render pool, so the event loop never waits on Pillow."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import Executor
from functools import partial
from typing import Any

from i18n import current
from ui.adapter import Board, GameAdapter, Picture
from ui.workers import draw, make_pool, nothing, warm_renderer

RENDER_WORKERS = min(2, os.cpu_count() or 1)


class Renderer:
    """Own the render pool and draw boards and private pictures in it."""

    def __init__(self, workers: str = "process") -> None:
        self.workers = workers
        self._pool: Executor | None = None

    @property
    def pool(self) -> Executor:
        """Return the pool that draws pictures (started on first use)."""
        if self._pool is None:
            self._pool = make_pool(self.workers, RENDER_WORKERS, "render", warm=warm_renderer)
        return self._pool

    async def draw(self, adapter: GameAdapter, method: str, view: dict[str, Any], names: list[str]) -> Picture | None:
        """Draw one of an adapter's pictures in the render pool, in the language of the task asking for it."""
        job = partial(draw, adapter.key, method, view, list(names), current())
        return await asyncio.get_running_loop().run_in_executor(self.pool, job)

    async def board(self, adapter: GameAdapter, board: Board) -> Picture:
        """Render the public board."""
        picture = await self.draw(adapter, "board_picture", board.game.view(board.state, None), board.names)
        assert picture is not None
        return picture

    async def warm_up(self) -> None:
        """Start every render worker now, so the first boards after a start do not wait for them."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.pool, nothing) for _ in range(RENDER_WORKERS)))

    def close(self) -> None:
        """Stop the render pool."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
