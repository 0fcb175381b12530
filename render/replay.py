"""Turn a sequence of board pictures into one animated GIF that fits in a Discord attachment."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

MAX_FRAMES = 150
WIDTH = 480
# Discord takes 10 MiB attachments from bots on servers without boosts; stay well under it.
MAX_BYTES = 8 * 1024 * 1024
# When a replay is too large: first fewer frames (down to about MIN_FRAMES), then narrower frames (down to
# MIN_WIDTH), then fewer frames again, down to the final board alone.
MIN_FRAMES = 24
MIN_WIDTH = 240


@dataclass(frozen=True)
class Frame:
    """One shrunk board: its size and pixels as indexes into the replay's palette (cheap to pass between processes)."""

    size: tuple[int, int]
    pixels: bytes

    def image(self, palette: Sequence[int]) -> Image.Image:
        """Return the frame as a palette picture."""
        image = Image.frombytes("P", self.size, self.pixels)
        image.putpalette(palette)
        return image


def pick_frames(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """Return the indices of at most about `limit` evenly spaced frames out of `count`, always with the last."""
    if count <= 0:
        raise ValueError("no frames to animate")
    step = max(1, -(-count // limit))
    chosen = list(range(0, count, step))
    if chosen[-1] != count - 1:
        chosen.append(count - 1)
    return chosen


def palette_for(first: bytes, last: bytes) -> Image.Image:
    """Return one palette for a whole replay, drawn from its opening and final boards side by side."""
    a, b = Image.open(io.BytesIO(first)).convert("RGB"), Image.open(io.BytesIO(last)).convert("RGB")
    reference = Image.new("RGB", (a.width + b.width, max(a.height, b.height)), (255, 255, 255))
    reference.paste(a, (0, 0))
    reference.paste(b, (a.width, 0))
    return reference.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def shrink(png: bytes, width: int, palette: Image.Image) -> Frame:
    """Scale one board to `width` (area-averaged: fast, and sharp enough when shrinking) onto the replay's palette."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = max(1, round(image.height * width / image.width))
    if (factor := image.width // width) >= 2:
        image = image.reduce(factor)
    if image.size != (width, height):
        image = image.resize((width, height), Image.Resampling.BOX)
    return Frame((width, height), image.quantize(palette=palette, dither=Image.Dither.NONE).tobytes())


def assemble(
    frames: Sequence[Frame],
    palette: Sequence[int],
    *,
    frame_ms: int = 700,
    last_ms: int = 4000,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """Return an animated GIF of shrunk frames, with fewer or narrower frames if it would be too large."""
    if not frames:
        raise ValueError("no frames to animate")
    images = [frame.image(palette) for frame in frames]
    reference = images[-1]
    while True:
        gif = _encode(images, frame_ms, last_ms)
        if len(gif) <= max_bytes:
            return gif
        if len(images) > MIN_FRAMES:
            target = min(len(images) - 1, int(len(images) * 0.9 * max_bytes / len(gif)))
            images = [images[i] for i in pick_frames(len(images), max(MIN_FRAMES, target))]
        elif images[0].width > MIN_WIDTH:
            width = max(MIN_WIDTH, images[0].width * 3 // 4)
            images = [_narrow(i, width, reference) for i in images]
        elif len(images) > 1:
            images = [images[i] for i in pick_frames(len(images), len(images) // 2)]
        else:
            raise ValueError(f"a replay of {len(images)} frames does not fit in {max_bytes} bytes")


def animate(
    frames: Sequence[bytes],
    *,
    width: int = WIDTH,
    frame_ms: int = 700,
    last_ms: int = 4000,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """Return an animated GIF of PNG boards, scaled to `width`, thinned to MAX_FRAMES and kept under `max_bytes`."""
    if not frames:
        raise ValueError("no frames to animate")
    palette = palette_for(frames[0], frames[-1])
    shrunk = [shrink(frames[i], width, palette) for i in pick_frames(len(frames))]
    return assemble(shrunk, palette.getpalette() or [], frame_ms=frame_ms, last_ms=last_ms, max_bytes=max_bytes)


def _narrow(image: Image.Image, width: int, palette: Image.Image) -> Image.Image:
    """Scale a palette frame down to `width`, keeping the replay's palette."""
    height = max(1, round(image.height * width / image.width))
    small = image.convert("RGB").resize((width, height), Image.Resampling.BILINEAR)
    return small.quantize(palette=palette, dither=Image.Dither.NONE)


def _encode(images: Sequence[Image.Image], frame_ms: int, last_ms: int) -> bytes:
    """Encode frames as a looping GIF, padding smaller ones onto the largest frame's size."""
    size = (max(i.width for i in images), max(i.height for i in images))
    canvas = [i if i.size == size else _pad(i, size) for i in images]
    out = io.BytesIO()
    durations = [frame_ms] * (len(canvas) - 1) + [last_ms]
    canvas[0].save(out, format="GIF", save_all=True, append_images=canvas[1:], duration=durations, loop=0)
    return out.getvalue()


def _pad(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Place a smaller frame on a white canvas of the animation's size, keeping its palette."""
    canvas = Image.new("RGB", size, (255, 255, 255))
    canvas.paste(image.convert("RGB"), (0, 0))
    return canvas.quantize(palette=image, dither=Image.Dither.NONE)
