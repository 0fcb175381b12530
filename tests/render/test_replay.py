"""Check the animated replay."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render.replay import MAX_FRAMES, MIN_FRAMES, animate, pick_frames


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


def noise(seed: int, size: tuple[int, int] = (400, 300)) -> bytes:
    """Return a PNG of random pixels: the worst case for GIF compression."""
    out = io.BytesIO()
    Image.frombytes("RGB", size, random.Random(seed).randbytes(size[0] * size[1] * 3)).save(out, format="PNG")
    return out.getvalue()


def test_a_replay_too_large_for_discord_gets_fewer_then_narrower_frames() -> None:
    frames = [noise(i) for i in range(60)]
    natural = animate(frames, width=400)
    limit = len(natural) // 5
    gif = Image.open(io.BytesIO(fitted := animate(frames, width=400, max_bytes=limit)))
    assert len(fitted) <= limit
    assert gif.n_frames <= MIN_FRAMES + 1
    assert gif.width < 400


def test_a_replay_that_fits_keeps_every_frame_and_its_width() -> None:
    frames = [noise(i, (80, 60)) for i in range(30)]
    gif = Image.open(io.BytesIO(animate(frames, width=80)))
    assert (gif.n_frames, gif.width) == (30, 80)


def test_frames_are_picked_evenly_and_always_include_the_last() -> None:
    assert pick_frames(5) == [0, 1, 2, 3, 4]
    assert pick_frames(10, 4) == [0, 3, 6, 9]
    assert pick_frames(11, 4) == [0, 3, 6, 9, 10]
