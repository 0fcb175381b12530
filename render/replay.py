"""Turn a sequence of board pictures into one animated GIF."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

MAX_FRAMES = 150


def animate(frames: Sequence[bytes], *, width: int = 480, frame_ms: int = 700, last_ms: int = 4000) -> bytes:
    """Return an animated GIF of PNG frames, scaled to `width` and thinned to at most MAX_FRAMES."""
    if not frames:
        raise ValueError("no frames to animate")
    step = max(1, -(-len(frames) // MAX_FRAMES))
    chosen = list(frames[::step])
    if chosen[-1] is not frames[-1]:
        chosen.append(frames[-1])
    images = []
    for png in chosen:
        image = Image.open(io.BytesIO(png)).convert("RGB")
        height = round(image.height * width / image.width)
        images.append(image.resize((width, height), Image.Resampling.BILINEAR).quantize(128))
    size = (max(i.width for i in images), max(i.height for i in images))
    canvas = [i if i.size == size else _pad(i, size) for i in images]
    out = io.BytesIO()
    durations = [frame_ms] * (len(canvas) - 1) + [last_ms]
    canvas[0].save(out, format="GIF", save_all=True, append_images=canvas[1:], duration=durations, loop=0)
    return out.getvalue()


def _pad(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Place a smaller frame on a white canvas of the animation's size."""
    canvas = Image.new("RGB", size, (255, 255, 255))
    canvas.paste(image.convert("RGB"), (0, 0))
    return canvas.quantize(128)
