"""Check that boards can be drawn in a separate worker process, as the bot does in production."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from engine.fish import GAME
from i18n import using
from tests.e2e.child_bot import alive, children_of
from ui.workers import default_kind, draw, make_pool

ROOT = Path(__file__).resolve().parents[2]


async def test_a_board_drawn_in_a_worker_process_is_a_png_with_alt_text() -> None:
    view = GAME.view(GAME.new_game(2, {}, seed=4), None)
    pool = make_pool("process", 1, "render")
    try:
        job = asyncio.get_running_loop().run_in_executor(pool, draw, "fish", "board_picture", view, ["A", "B"])
        picture = await asyncio.wait_for(job, 60)
    finally:
        pool.shutdown()
    assert Image.open(io.BytesIO(picture.png)).format == "PNG"
    assert picture.alt.startswith("A to place a penguin")


async def test_a_picture_drawn_in_a_worker_process_speaks_the_language_of_the_task_that_asked() -> None:
    from ui.rendering import Renderer
    from ui.workers import _adapter

    renderer = Renderer("process")
    renderer._pool = make_pool("process", 1, "render")  # no warm-up: the worker has loaded no catalog yet
    try:
        with using("de"):
            view = GAME.view(GAME.new_game(2, {}, seed=4), None)
            german = await asyncio.wait_for(renderer.draw(_adapter("fish"), "board_picture", view, ["A", "B"]), 60)
        english = await asyncio.wait_for(renderer.draw(_adapter("fish"), "board_picture", view, ["A", "B"]), 60)
    finally:
        renderer.close()
    assert german is not None and english is not None
    assert german.alt.startswith("A setzt einen Pinguin.") and english.alt.startswith("A to place a penguin.")
    assert german.png != english.png


def test_every_game_has_an_adapter_a_worker_can_find() -> None:
    from engine.registry import games

    for key in games():
        view = games()[key].view(games()[key].new_game(games()[key].min_players, {}, 1), None)
        picture = draw(key, "board_picture", view, ["A", "B", "C", "D", "E", "F"])
        assert picture is not None and picture.png.startswith(b"\x89PNG")


def test_the_worker_kind_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICE_FLOE_WORKERS", "Thread")
    assert default_kind() == "thread"
    monkeypatch.delenv("ICE_FLOE_WORKERS")
    assert default_kind() == "process"
    monkeypatch.setenv("ICE_FLOE_WORKERS", "gpu")
    with pytest.raises(ValueError, match="ICE_FLOE_WORKERS"):
        default_kind()


POOL_OWNER = """
import sys, time
from ui.workers import make_pool, nothing, warm_renderer
render = make_pool("process", 2, "render", warm=warm_renderer)
think = make_pool("process", 1, "bot")
for pool, n in ((render, 2), (think, 1)):
    for future in [pool.submit(time.sleep, 0.3) for _ in range(n)]:
        future.result()
print("ready", flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_worker_processes_and_the_resource_tracker_exit_when_the_bot_is_killed() -> None:
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    owner = subprocess.Popen([sys.executable, "-c", POOL_OWNER], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert owner.stdout is not None and owner.stdout.readline().strip() == "ready"
        children = children_of(owner.pid)
        assert len(children) >= 3  # 2 render workers, 1 thinking worker, and the resource tracker
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    deadline = time.monotonic() + 30
    while (left := [pid for pid in children if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left == [], f"processes left running after the bot died: {left}"


def test_a_process_settles_its_collector_once_started() -> None:
    import gc

    from ui.workers import YOUNG_OBJECTS, settle_garbage_collector

    threshold = gc.get_threshold()
    try:
        settle_garbage_collector()
        assert gc.get_threshold()[0] == YOUNG_OBJECTS
        assert gc.get_freeze_count() > 0  # what start-up made is left out of later collections
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
