"""Hold what every renderer shares: fonts, the seat palette and PNG encoding."""

from __future__ import annotations

import bisect
import io
import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from i18n import N_, _, current, pgettext
from render.breaks import NO_BREAK_BEFORE, pieces

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"

# Okabe-Ito colour-blind-safe palette; each seat also gets a letter and a shape.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (240, 228, 66),  # yellow
    (213, 94, 0),  # vermillion
)
# TRANSLATORS: seat colours, named in alt text beside the seat's letter ("Ana (orange A): ...").
SEAT_COLOUR_NAMES = (N_("orange"), N_("sky blue"), N_("green"), N_("purple"), N_("yellow"), N_("vermillion"))
SEAT_LETTERS = "ABCDEF"
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon")
INK = (20, 24, 33)
PAPER = (248, 250, 252)
ALT_LIMIT = 1024  # Discord keeps this many characters of an attachment's alt text
ALT_MORE = " " + N_("The rest is in the board message's menus.")
STOPS = (".", "!", "?", "…", "。", "！", "？")
"""What a sentence may end with, in every shipped script."""


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return the shipped DejaVu Sans at `size` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def seat_colour(seat: int) -> tuple[int, int, int]:
    """Return the palette colour of a seat."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_letter(seat: int) -> str:
    """Return the letter drawn on a seat's pieces."""
    return SEAT_LETTERS[seat % len(SEAT_LETTERS)]


def colour_name(seat: int) -> str:
    """Return the name of a seat's colour in the current language."""
    return _(SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)])


def clauses(items: Sequence[str]) -> str:
    """Return clauses of one alt text sentence one after another ("Ana: 3 cards; Bo: 2 cards")."""
    # TRANSLATORS: what separates the clauses of one sentence in alt text ("Ana: 3 cards; Bo: 2 cards").
    return pgettext("clause separator", "; ").join(items)


CAPITALISED_NOUNS = frozenset({"de"})
"""Languages whose nouns keep their capital letter inside a sentence."""


def in_sentence(text: str) -> str:
    """Return a text written to stand alone (a goal's rule) lowercased to sit inside a sentence, where that is right."""
    return text if current() in CAPITALISED_NOUNS else text.lower()


def full_stop(text: str) -> str:
    """Return `text` ending with one full stop of the current language (none after one it already ends with)."""
    text = text.rstrip()
    # TRANSLATORS: the full stop added at the end of a sentence in alt text; Japanese uses "。".
    return text if text.endswith(STOPS) else text + pgettext("full stop", ".")


_CJK_SPACE = re.compile(r"(?<=[。！？]) +")


def fit_alt(*versions: str, limit: int = ALT_LIMIT) -> str:
    """Return the first of `versions` (fullest first) that fits Discord's alt text, else the last in whole sentences.

    Each renderer's last version is written to fit every table; the sentence cut (saying so) is a safety net.
    """
    # Sentences are joined with spaces; Japanese runs its sentences on after "。" with none.
    versions = tuple(_CJK_SPACE.sub("", text) for text in versions)
    for text in versions:
        if len(text) <= limit:
            return text
    text = versions[-1]
    more = " " + _(ALT_MORE.strip())
    room = limit - len(more)
    end = max(text.rfind(". ", 0, room) + 1, text.rfind("。", 0, room) + 1)
    return (text[:end] if end > 0 else text[:room].rsplit(" ", 1)[0]) + more


def text_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Return black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else (255, 255, 255)


_PNG_LEVEL: ContextVar[int] = ContextVar("png_level", default=1)


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode an image as PNG bytes, favouring speed; map it onto `palette` first when given."""
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=_PNG_LEVEL.get())
    return buffer.getvalue()


@contextmanager
def intermediate_pictures() -> Iterator[None]:
    """Encode PNGs uncompressed inside this block: for pictures decoded again at once (replay frames)."""
    token = _PNG_LEVEL.set(0)
    try:
        yield
    finally:
        _PNG_LEVEL.reset(token)


def palette_of(reference: Image.Image, colours: int = 128) -> Image.Image:
    """Return a fixed palette drawn from a reference picture, so later pictures quantize fast."""
    return reference.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


# The fallback chain for names in any script. Each character is drawn with the first font that has it, in
# this order: Hebrew and Arabic letters with Noto Sans Hebrew/Arabic, pictographs from the emoji atlas, then
# DejaVu Sans (Latin, Cyrillic, Greek, symbols), the Noto Sans CJK subset, the Hebrew and Arabic fonts for
# anything else they hold, and the atlas. A character none of them has becomes MISSING, never a box.
DEJAVU, CJK, HEBREW, ARABIC, EMOJI = "dejavu", "cjk", "hebrew", "arabic", "emoji"
FONT_FILES: dict[str, tuple[str, str]] = {
    DEJAVU: ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    CJK: ("NotoSansCJK-Subset.otf", "NotoSansCJK-Bold-Subset.otf"),
    HEBREW: ("NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
    ARABIC: ("NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
}
MISSING = "?"
# Joiners, variation selectors and skin-tone modifiers only adjust the emoji before them: drop them.
_DROPPED = frozenset({0x200D, 0xFE0E, 0xFE0F, *range(0x1F3FB, 0x1F400)})
_RTL = (HEBREW, ARABIC)
# Format and control characters (direction marks, isolates, zero-width spaces, tags) show nothing; only the
# zero-width non-joiner, which shapes Arabic script, is kept.
_INVISIBLE = frozenset({"Cf", "Cc"})
# Without raqm, Pillow lays text out left to right and never joins Arabic letters; names then fall back to
# reversed runs of unjoined letters, still in reading order.
COMPLEX_LAYOUT = features.check("raqm")


@dataclass(frozen=True)
class Run:
    """A stretch of text drawn with one face of the fallback chain."""

    face: str
    text: str


class _Coverage:
    """Answer whether a shipped font maps a code point, from the ranges in coverage.json."""

    def __init__(self, ranges: list[list[int]]) -> None:
        self.starts = [r[0] for r in ranges]
        self.ends = [r[1] for r in ranges]

    def __contains__(self, point: int) -> bool:
        i = bisect.bisect_right(self.starts, point) - 1
        return i >= 0 and point <= self.ends[i]


@cache
def _coverage() -> dict[str, _Coverage]:
    """Load each regular face's coverage once per process."""
    data = json.loads((FONT_DIR / "coverage.json").read_text())
    return {face: _Coverage(data[files[0]]) for face, files in FONT_FILES.items()}


@cache
def _emoji_index() -> tuple[int, int, dict[int, int]]:
    """Return the emoji atlas cell size, its column count and code point -> cell."""
    meta = json.loads((FONT_DIR / "emoji-atlas.json").read_text())
    return meta["cell"], meta["columns"], {int(k, 16): v for k, v in meta["glyphs"].items()}


@cache
def _emoji_atlas() -> Image.Image:
    """Load the emoji atlas picture once per process."""
    return Image.open(FONT_DIR / "emoji-atlas.png").convert("RGBA")


@cache
def emoji_sprite(point: int, side: int) -> Image.Image:
    """Return the colour emoji for `point` scaled to `side` pixels square."""
    cell, columns, index = _emoji_index()
    i = index[point]
    x, y = (i % columns) * cell, (i // columns) * cell
    sprite = _emoji_atlas().crop((x, y, x + cell, y + cell))
    return sprite.resize((side, side), Image.Resampling.LANCZOS)


@cache
def face_font(face: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return one face of the fallback chain at `size` pixels."""
    if face == DEJAVU:
        return font(size, bold)
    engine = ImageFont.Layout.RAQM if COMPLEX_LAYOUT else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(FONT_DIR / FONT_FILES[face][bold]), size, layout_engine=engine)


@cache
def face_of(char: str) -> str | None:
    """Return the face that draws `char`, or None when no shipped font has it."""
    point = ord(char)
    cover = _coverage()
    if 0x0590 <= point < 0x0600 and point in cover[HEBREW]:
        return HEBREW
    if (0x0600 <= point < 0x0900 or 0xFB50 <= point < 0xFF00) and point in cover[ARABIC]:
        return ARABIC
    emoji = _emoji_index()[2]
    if point >= 0x1F000 and point in emoji:
        return EMOJI
    for face in (DEJAVU, CJK, HEBREW, ARABIC):
        if point in cover[face]:
            return face
    return EMOJI if point in emoji else None


def _neutral(char: str) -> bool:
    """Tell whether `char` (space, digit, punctuation) may stay in the run before it."""
    return not unicodedata.category(char).startswith(("L", "M", "S"))


def runs_of(text: str) -> list[Run]:
    """Split `text` into runs of one face each, left to right, substituting MISSING for unknown characters."""
    runs: list[Run] = []
    for i, char in enumerate(text):
        point = ord(char)
        if point in _DROPPED and runs:
            continue
        if unicodedata.category(char) in _INVISIBLE and point != 0x200C:
            continue
        face = face_of(char)
        if text[i + 1 : i + 2] == "\ufe0f" and point in _emoji_index()[2]:
            face = EMOJI  # a text symbol such as ❤ asked to look like an emoji
        if face is None:
            face, char = DEJAVU, MISSING
        previous = runs[-1].face if runs else None
        if previous not in (None, face, EMOJI) and _neutral(char) and point in _coverage()[previous]:
            face = previous
        if runs and runs[-1].face == face:
            runs[-1] = Run(face, runs[-1].text + char)
        else:
            runs.append(Run(face, char))
    # Pictures read left to right (their text is English), so runs stay in order; raqm lays each Hebrew or
    # Arabic run out right to left itself, and without raqm the run is reversed here. Spaces and punctuation
    # that end a right-to-left run belong after it, on its left-to-right side.
    runs = _detach_trailing_neutrals(runs)
    if not COMPLEX_LAYOUT:
        runs = [Run(r.face, r.text[::-1]) if r.face in _RTL else r for r in runs]
    return runs


def _detach_trailing_neutrals(runs: list[Run]) -> list[Run]:
    """Move the spaces and punctuation that end a right-to-left run into a DejaVu run after it."""
    result: list[Run] = []
    for run in runs:
        body = run.text
        if run.face in _RTL:
            while body and _neutral(body[-1]) and ord(body[-1]) in _coverage()[DEJAVU]:
                body = body[:-1]
        tail = run.text[len(body) :]
        for piece in (Run(run.face, body), Run(DEJAVU, tail)):
            if not piece.text:
                continue
            if result and result[-1].face == piece.face:
                result[-1] = Run(piece.face, result[-1].text + piece.text)
            else:
                result.append(piece)
    return result


def _emoji_side(size: int) -> int:
    """Return the square an emoji takes beside text of `size` pixels."""
    return max(1, round(size * 1.05))


def _run_length(run: Run, size: int, bold: bool) -> float:
    """Return how wide one run is drawn."""
    if run.face == EMOJI:
        return len(run.text) * (_emoji_side(size) + max(1, size // 10))
    return face_font(run.face, size, bold).getlength(run.text)


def text_length(text: str, size: int, bold: bool = False) -> float:
    """Return how wide `text` is drawn at `size` pixels."""
    if text.isascii():
        return font(size, bold).getlength(text)
    return sum(_run_length(run, size, bold) for run in runs_of(text))


def fit_text(text: str, size: int, width: float, bold: bool = False) -> str:
    """Return `text`, shortened with an ellipsis when needed, so it is at most `width` pixels wide."""
    if text_length(text, size, bold) <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits lies in [low, high); a binary search finds it
    while low + 1 < high:
        middle = (low + high) // 2
        if text_length(text[:middle] + "…", size, bold) <= width:
            low = middle
        else:
            high = middle
    return text[:low].rstrip() + "…"


def fit_named(line: Callable[[str], str], name: str, size: int, width: float, bold: bool = False) -> str:
    """Return `line(name)` with the name (never the other words) shortened so the whole line fits `width`."""
    rest = text_length(line(""), size, bold)
    return line(fit_text(name, size, width - rest, bold))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] | int,
    *,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    """Draw `text` (which may be a player's name in any script) at `xy`, choosing a shipped font per glyph."""
    base = font(size, bold)
    runs = [Run(DEJAVU, text)] if text.isascii() else runs_of(text)
    if len(runs) == 1 and runs[0].face == DEJAVU:
        draw.text(xy, runs[0].text, font=base, fill=fill, anchor=anchor)
        return
    horizontal, vertical = anchor[0], anchor[1]
    widths = [_run_length(run, size, bold) for run in runs]
    x = xy[0] - {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[horizontal]
    # Every face shares DejaVu's baseline for this anchor, so mixed scripts sit on one line.
    baseline = xy[1] + base.getbbox("Hg", anchor="l" + vertical)[1] - base.getbbox("Hg", anchor="ls")[1]
    for run, width in zip(runs, widths, strict=True):
        if run.face == EMOJI:
            _draw_emoji(draw, (x, baseline), run.text, size, fill)
        else:
            # Every face ships a bold weight: bold is never faked with an outline, which fills dense kanji in.
            draw.text((x, baseline), run.text, font=face_font(run.face, size, bold), fill=fill, anchor="ls")
        x += width


def _draw_emoji(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int] | int
) -> None:
    """Draw emoji from the atlas on the baseline at `xy`: in colour on RGB pictures, else in `fill`."""
    side = _emoji_side(size)
    step = side + max(1, size // 10)
    image = draw._image
    x, top = round(xy[0]), round(xy[1] - side * 0.86)
    for char in text:
        sprite = emoji_sprite(ord(char), side)
        if image.mode in ("RGB", "RGBA"):
            image.paste(sprite, (x, top), sprite)
        else:
            draw.bitmap((x, top), sprite.getchannel("A"), fill=fill)
        x += step


_measured = lru_cache(maxsize=8192)(text_length)
"""`text_length`, remembered: wrapping measures the same lines of a picture again on every redraw."""


def wrap_text(
    text: str, size: int, width: float, bold: bool = False, max_lines: int = 2, keep: Sequence[str] = ()
) -> list[str]:
    """Break `text` into at most `max_lines` lines of at most `width` pixels.

    Lines break where `render.breaks` allows: after spaces, between Japanese phrases, never inside a phrase of
    `keep` (a card's name) that fits a line. A piece wider than a line (a long name) breaks between characters,
    never before closing punctuation. Only text that still does not fit in `max_lines` lines ends with "…".
    """
    lines: list[str] = []  # each as it was cut from `text`, with the space it broke at
    current = ""
    for piece in pieces(text, tuple(keep)):
        if _measured((current + piece).rstrip(), size, bold) <= width:
            current += piece
            continue
        if current and _measured(piece.rstrip(), size, bold) <= width:
            lines.append(current)
            current = piece
            continue
        for char in piece:  # wider than a line: it starts where the line has room ("4. Pneumono")
            if current.strip() and _measured(current + char, size, bold) > width and char not in NO_BREAK_BEFORE:
                lines.append(current)
                current = ""
            if current or char != " ":
                current += char
    if current.strip() or not lines:
        lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], fit_text("".join(lines[max_lines - 1 :]).rstrip(), size, width, bold)]
    return [line.rstrip() for line in lines]


def fit_lines(
    text: str, width: float, sizes: tuple[int, ...], bold: bool = False, max_lines: int = 2
) -> tuple[int, list[str]]:
    """Return the largest of `sizes` at which `text` fits on one line, else the smallest, wrapped: (size, lines)."""
    for size in sizes:
        if text_length(text, size, bold) <= width:
            return size, [text]
    size = sizes[-1]
    return size, wrap_text(text, size, width, bold, max_lines)


def fit_named_lines(
    line: Callable[[str], str], name: str, width: float, sizes: tuple[int, ...], bold: bool = False, max_lines: int = 2
) -> tuple[int, list[str]]:
    """Return (size, lines) of `line(name)` on at most `max_lines` lines: the name whole if it can be, else cut.

    Only the end of the name is ever left out (with an ellipsis), never its start nor the other words of the
    line ("· winner", "to move"): they are what the line says.
    """
    size, lines = fit_lines(line(name), width, sizes, bold, max_lines)
    if len(wrap_text(line(name), size, width, bold, max_lines=len(name) + 99)) <= max_lines:
        return size, lines
    low, high = 0, len(name)  # the longest start of the name that fits lies in [low, high)
    while low + 1 < high:
        middle = (low + high) // 2
        trial = line(name[:middle].rstrip() + "…")
        if len(wrap_text(trial, size, width, bold, max_lines=len(trial) + 99)) <= max_lines:
            low = middle
        else:
            high = middle
    return size, wrap_text(line(name[:low].rstrip() + "…"), size, width, bold, max_lines)
