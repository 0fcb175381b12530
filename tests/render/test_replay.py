"""Check the animated replay."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.replay import MAX_FRAMES, animate


def frame(colour: tuple[int, int, int], size: tuple[int, int] = (800, 600)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def test_every_board_becomes_a_frame_and_the_last_one_lingers() -> None:
    gif = Image.open(io.BytesIO(animate([frame((200, 0, 0)), frame((0, 200, 0)), frame((0, 0, 200))], width=400)))
    assert gif.format == "GIF"
    assert gif.n_frames == 3
    assert gif.size == (400, 300)
    gif.seek(2)
    assert gif.info["duration"] > 1000


def test_long_games_are_thinned_but_keep_their_final_board() -> None:
    frames = [frame((i % 256, 0, 0), (80, 60)) for i in range(400)]
    frames[-1] = frame((0, 0, 255), (80, 60))
    gif = Image.open(io.BytesIO(animate(frames, width=80)))
    assert gif.n_frames <= MAX_FRAMES + 1
    gif.seek(gif.n_frames - 1)
    assert gif.convert("RGB").getpixel((5, 5))[2] > 200


def test_no_frames_is_an_error() -> None:
    with pytest.raises(ValueError):
        animate([])
