"""Build a finished game's animated replay in the render pool, once, and keep it for every later request."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from functools import cache, partial
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from engine.registry import package
from i18n import current
from render.replay import MAX_BYTES, WIDTH, assemble, pick_frames
from storage.backends import SQLITE_PREFIX, is_postgres
from storage.database import GameRow
from ui.workers import replay_frames

ROOT = Path(__file__).resolve().parent.parent
# Frames are drawn by this many pool jobs at once; each replays the log and draws its share.
JOBS = 2
MAX_FILES = 200


class ReplayCache:
    """Keep replay GIFs on disk beside the database (or in memory for an in-memory one), newest MAX_FILES."""

    def __init__(self, directory: Path | None, max_files: int = MAX_FILES) -> None:
        self.directory = directory
        self.max_files = max_files
        self._memory: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        """Return the cached replay for `key`, or None."""
        if self.directory is None:
            if key in self._memory:
                self._memory.move_to_end(key)
            return self._memory.get(key)
        path = self.directory / f"{key}.gif"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        os.utime(path)
        return data

    def put(self, key: str, data: bytes) -> None:
        """Store a replay, dropping the least recently used ones beyond the limit."""
        if self.directory is None:
            self._memory[key] = data
            while len(self._memory) > self.max_files:
                self._memory.popitem(last=False)
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        partial_path = self.directory / f"{key}.gif.part"
        partial_path.write_bytes(data)
        os.replace(partial_path, self.directory / f"{key}.gif")
        files = sorted(self.directory.glob("*.gif"), key=lambda p: p.stat().st_mtime)
        for old in files[: max(0, len(files) - self.max_files)]:
            old.unlink(missing_ok=True)


@cache
def cache_for(database: str) -> ReplayCache:
    """Return the replay cache: a `replays` folder beside a SQLite file, or data/replays for a database server."""
    if is_postgres(database):
        return ReplayCache(ROOT / "data" / "replays")
    path = database.removeprefix(SQLITE_PREFIX)
    if path == ":memory:":
        return ReplayCache(None)
    return ReplayCache(Path(path).resolve().parent / "replays")


def source_files(module: str) -> list[Path]:
    """Return the Python files of a module: the file itself, or every file of a package."""
    spec = find_spec(module)
    if spec is None or spec.origin is None:
        raise LookupError(f"no module {module!r}")
    origin = Path(spec.origin)
    return sorted(origin.parent.rglob("*.py")) if spec.submodule_search_locations else [origin]


def render_files(kind: str) -> list[Path]:
    """Return the code and data that draw a game's boards: render/, the game's package and cog, fonts, workers."""
    parts = package(kind)
    files = sorted((ROOT / "render").rglob("*.py")) + source_files(parts.module) + source_files(parts.cog)
    return [*files, ROOT / "ui" / "workers.py", ROOT / "data" / "fonts" / "coverage.json"]


@cache
def render_version(kind: str) -> str:
    """Return a digest of the code and data that draw a game's boards, so a changed picture is rebuilt."""
    digest = hashlib.sha256()
    for path in render_files(kind):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def replay_key(row: GameRow, log: Sequence[Mapping[str, Any]]) -> str:
    """Return the cache key of a finished game's replay: its number plus a digest of all that shapes it.

    The boards' words are in the current language, so each language has its own replay.
    """
    parts = [row.kind, row.seed, row.options, row.names, len(log), render_version(row.kind), current()]
    shape = json.dumps(parts, default=str)
    return f"{row.id}-{hashlib.sha256(shape.encode()).hexdigest()[:16]}"


_building: dict[str, asyncio.Future[bytes]] = {}


async def replay_gif(
    pool: Executor, cache: ReplayCache, row: GameRow, log: Sequence[Mapping[str, Any]], *, max_bytes: int = MAX_BYTES
) -> bytes:
    """Return a finished game's replay GIF: from the cache, or drawn in the pool once and then cached."""
    key = replay_key(row, log)
    if (cached := await asyncio.to_thread(cache.get, key)) is not None:
        return cached
    if key in _building:
        return await asyncio.shield(_building[key])
    future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
    _building[key] = future
    try:
        gif = await _build(pool, row, log, max_bytes)
        await asyncio.to_thread(cache.put, key, gif)
        future.set_result(gif)
        return gif
    except BaseException as error:
        future.set_exception(error)
        future.exception()  # mark it retrieved when nobody else waits
        raise
    finally:
        del _building[key]


async def _build(pool: Executor, row: GameRow, log: Sequence[Mapping[str, Any]], max_bytes: int) -> bytes:
    """Draw the replay's frames in JOBS pool jobs (in the current language), then assemble the GIF in the pool."""
    loop = asyncio.get_running_loop()
    entries = [{"seat": e["seat"], "action": e["action"], "rules": e.get("rules")} for e in log]
    indices = pick_frames(len(entries) + 1)
    size = -(-len(indices) // JOBS)
    chunks = [indices[i : i + size] for i in range(0, len(indices), size)]
    jobs = [
        loop.run_in_executor(
            pool,
            partial(
                replay_frames,
                row.kind,
                row.options,
                row.seed,
                entries,
                row.names,
                chunk,
                WIDTH,
                row.rules,
                row.state,
                current(),
            ),
        )
        for chunk in chunks
    ]
    parts = await asyncio.gather(*jobs)
    frames = [frame for shrunk, _ in parts for frame in shrunk]
    palette = parts[0][1]  # every job derives the same palette
    return await loop.run_in_executor(pool, partial(assemble, frames, palette, max_bytes=max_bytes))
