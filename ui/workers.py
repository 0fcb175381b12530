"""Run CPU-heavy work (drawing boards, computer players thinking) away from the event loop."""

from __future__ import annotations

import gc
import importlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache
from typing import Any

from engine.registry import package
from engine.replay import replay_as_played
from i18n import ENGLISH, LANGUAGES, using
from i18n.catalogs import translations
from render.common import intermediate_pictures
from render.replay import Frame, palette_for, shrink
from ui.adapter import GameAdapter, Picture

WORKERS_ENV = "ICE_FLOE_WORKERS"
PARENT_CHECK_S = 0.2


def default_kind() -> str:
    """Return "process" (the default: the GIL never stalls the event loop) or "thread" (from the environment)."""
    kind = os.environ.get(WORKERS_ENV, "process").strip().lower()
    if kind not in ("process", "thread"):
        raise ValueError(f"{WORKERS_ENV} must be 'process' or 'thread' (got {kind!r})")
    return kind


def make_pool(kind: str, workers: int, name: str, warm: Callable[[], None] | None = None) -> Executor:
    """Return a pool of worker processes (spawned, so no state leaks in; each runs `warm` first) or threads."""
    if kind == "process":
        return ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
            initargs=(os.getpid(), warm),
        )
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)


YOUNG_OBJECTS = 10_000
"""New container objects between two collections of the youngest generation (Python's default is 700).

Higher still collects less in a burst, but each collection of the older generations then holds the event loop
longer (50,000: pauses of 97 ms with 50 games playing; 10,000: 18 ms; 700: 4 ms).
"""


def settle_garbage_collector() -> None:
    """Keep what start-up made out of every later collection, and collect young objects less often.

    A move makes many short-lived objects (parsed payloads, components, pictures) that reference counting
    frees on its own; with Python's default threshold the collector walked them hundreds of times a second
    during a burst, about a tenth of the event loop's time (a third as much now).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, 10, 10)


def start_worker(parent: int, warm: Callable[[], None] | None) -> None:
    """Make this worker exit when the bot that started it dies (even by SIGKILL), then run `warm`."""
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), name="floe-parent-watch", daemon=True).start()
    if warm is not None:
        warm()
    settle_garbage_collector()


def _watch_parent(parent: int) -> None:
    """Exit at once when this process's parent is no longer the bot (it died and the worker was re-parented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def warm_renderer() -> None:
    """Draw a first board of every game and load every language, so a worker is ready before real boards."""
    from engine.registry import games

    for language in LANGUAGES:
        translations(language)
    for key, game in games().items():
        players = max(2, game.min_players)
        names = [f"Player {n + 1}" for n in range(players)]
        draw(key, "board_picture", game.view(game.new_game(players, {}, 1), None), names)


def nothing() -> None:
    """Do nothing: a job that makes a pool start a worker."""


def draw(kind: str, method: str, view: dict[str, Any], names: list[str], language: str = ENGLISH) -> Picture | None:
    """Draw a picture and its alt text in `language` with the adapter of game `kind` (runs in a worker)."""
    with using(language):
        return getattr(_adapter(kind), method)(view, names)


def replay_frames(
    kind: str,
    options: Mapping[str, Any],
    seed: int,
    log: Sequence[Mapping[str, Any]],
    names: list[str],
    indices: Sequence[int],
    width: int,
    rules: int | None = None,
    saved: Mapping[str, Any] | None = None,
    language: str = ENGLISH,
) -> tuple[list[Frame], list[int]]:
    """Rebuild the boards at `indices` of a finished game, shrunk onto the replay's palette; return both (in a worker).

    Each step is replayed under the rules it was played under (`rules`: the deal's version; each log entry's
    "rules"; `saved`: the final state, which settles versions saved before they were recorded). Every job derives
    the same palette, from the opening and final boards, so their frames fit together. Boards read in `language`.
    """
    adapter = _adapter(kind)
    last = len(log)
    wanted = {*indices, 0, last}
    boards: dict[int, bytes] = {}
    with intermediate_pictures(), using(language):
        for i, (game, state) in enumerate(replay_as_played(kind, len(names), options, seed, log, rules, saved)):
            if i in wanted:
                boards[i] = adapter.board_picture(game.view(state, None), names).png
    palette = palette_for(boards[0], boards[last])
    return [shrink(boards[i], width, palette) for i in indices], palette.getpalette() or []


@cache
def _adapter(kind: str) -> GameAdapter:
    """Return an adapter for game `kind`, built from the class its cog module (named by its game package) defines."""
    cog = package(kind).cog
    module = importlib.import_module(cog)
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, GameAdapter) and getattr(value, "key", None) == kind:
            return value()
    raise LookupError(f"{cog} defines no adapter for {kind!r}")
