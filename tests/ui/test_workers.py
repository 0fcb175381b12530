"""Check that boards can be drawn in a separate worker process, as the bot does in production."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from engine.fish import GAME
from ui.workers import default_kind, draw, make_pool


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
