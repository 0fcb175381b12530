"""Rebuild the fallback fonts in data/fonts from Debian's Noto font packages.

Run by hand, never at start-up:

    apt-get update && cd /tmp && apt-get download fonts-noto-cjk fonts-noto-core fonts-noto-color-emoji
    for f in fonts-noto-*.deb; do dpkg -x "$f" /tmp/noto; done
    .venv/bin/python scripts/build_fonts.py /tmp/noto

It writes a CJK subset in two weights, regular and bold (the common Han characters of GB 2312 level 1 and
JIS X 0208 level 1, kana, the 2,350 Hangul syllables of KS X 1001, CJK punctuation, and every other character
the translation catalogs in locales/ use that DejaVu Sans lacks), the Hebrew and Arabic fonts subset to their
scripts, and an emoji atlas: every single-code-point emoji of Noto Color Emoji scaled to 32 px in one PNG, with
its index in JSON. It also records each font's character coverage in coverage.json.

When a catalog gains a character no shipped font covers (tests/render/test_catalog_glyphs.py says which),
rebuild the CJK subset alone, which needs only fonts-noto-cjk:

    cd /tmp && apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb /tmp/noto && cd -
    .venv/bin/python scripts/build_fonts.py --cjk-only /tmp/noto

`--locales DIR` (repeatable) reads the catalogs of other folders too, e.g. branches not merged yet.
"""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path

from babel.messages.pofile import read_po
from fontTools import subset
from fontTools.ttLib import TTFont
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "fonts"
LOCALES = ROOT / "locales"
EMOJI_CELL = 32


def _decode_rows(codec: str, lead: range, trail: range) -> set[int]:
    """Return the code points a double-byte codec maps the given lead and trail bytes to."""
    found: set[int] = set()
    for hi in lead:
        for lo in trail:
            try:
                text = bytes((hi, lo)).decode(codec)
            except UnicodeDecodeError:
                continue
            found.update(ord(c) for c in text)
    return found


def cjk_code_points() -> set[int]:
    """Return the CJK characters worth shipping: common Han, kana, Hangul and punctuation."""
    points = _decode_rows("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))  # GB 2312 level 1 Han
    points |= _decode_rows("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF))  # JIS X 0208 level 1 kanji
    points |= _decode_rows("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))  # KS X 1001 Hangul
    points |= set(range(0x3000, 0x3100))  # CJK punctuation, hiragana, katakana
    points |= set(range(0x3130, 0x3190))  # Hangul compatibility jamo
    points |= set(range(0x31F0, 0x3200))  # katakana phonetic extensions
    points |= set(range(0xFF00, 0xFFF0))  # half-width and full-width forms
    return points


def catalog_characters(folders: list[Path]) -> set[int]:
    """Return every code point the translations in the .po catalogs under `folders` use."""
    points: set[int] = set()
    for folder in folders:
        for path in sorted(folder.glob("*/LC_MESSAGES/*.po")):
            with path.open("rb") as source:
                for message in read_po(source):
                    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
                    points.update(ord(char) for text in strings if text for char in text)
    return points


def catalog_extras(folders: list[Path]) -> set[int]:
    """Return the printable catalog characters that neither DejaVu Sans nor the emoji atlas draws."""
    dejavu = set(TTFont(str(OUT / "DejaVuSans.ttf"), lazy=True).getBestCmap())
    emoji = {int(k, 16) for k in json.loads((OUT / "emoji-atlas.json").read_text())["glyphs"]}
    return {p for p in catalog_characters(folders) if p not in dejavu | emoji and chr(p).isprintable()}


def _subset(source: Path, target: Path, points: set[int], font_number: int = 0) -> None:
    """Write `source` cut down to `points`, keeping its shaping features."""
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.font_number = font_number
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=points)
    subsetter.subset(font)
    subset.save_font(font, str(target), options)
    print(f"{target.name}: {target.stat().st_size // 1024} KiB")


def build_emoji_atlas(source: Path) -> None:
    """Scale every single-code-point colour emoji to one atlas cell and write the atlas and its index."""
    font = TTFont(str(source))
    cmap = font.getBestCmap()
    strike = font["CBDT"].strikeData[0]
    points = sorted(p for p, name in cmap.items() if name in strike and p > 0x7F and p not in (0x200D, 0xFE0F))
    columns = 64
    rows = math.ceil(len(points) / columns)
    atlas = Image.new("RGBA", (columns * EMOJI_CELL, rows * EMOJI_CELL), (0, 0, 0, 0))
    index: dict[str, int] = {}
    for i, point in enumerate(points):
        glyph = strike[cmap[point]]
        glyph.ensureDecompiled()
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        scale = EMOJI_CELL / max(image.size)
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS)
        x, y = (i % columns) * EMOJI_CELL, (i // columns) * EMOJI_CELL
        atlas.paste(image, (x + (EMOJI_CELL - size[0]) // 2, y + (EMOJI_CELL - size[1]) // 2))
        index[f"{point:x}"] = i
    quantized = atlas.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    quantized.save(OUT / "emoji-atlas.png", optimize=True)
    meta = {"cell": EMOJI_CELL, "columns": columns, "glyphs": index}
    (OUT / "emoji-atlas.json").write_text(json.dumps(meta, separators=(",", ":")))
    print(f"emoji-atlas.png: {len(points)} emoji, {(OUT / 'emoji-atlas.png').stat().st_size // 1024} KiB")


def _ranges(points: list[int]) -> list[list[int]]:
    """Return sorted code points as inclusive [first, last] runs."""
    runs: list[list[int]] = []
    for point in points:
        if runs and runs[-1][1] == point - 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return runs


def write_coverage() -> None:
    """Record which code points each shipped font maps, so drawing needs no font parsing."""
    files = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "NotoSansCJK-Subset.otf", "NotoSansCJK-Bold-Subset.otf"]
    files += [f"NotoSans{script}-{weight}.ttf" for script in ("Hebrew", "Arabic") for weight in ("Regular", "Bold")]
    coverage = {name: _ranges(sorted(TTFont(str(OUT / name), lazy=True).getBestCmap())) for name in files}
    (OUT / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")))


def build_cjk(root: Path, locales: list[Path]) -> None:
    """Write the CJK subsets, regular and bold: the common characters plus every character the catalogs need.

    Both weights hold the same characters, so bold CJK text is drawn with real bold strokes, never thickened.
    """
    folder = root / "usr" / "share" / "fonts" / "opentype" / "noto"
    source = folder / "NotoSansCJK-Regular.ttc"
    extras = catalog_extras(locales)
    available = set(TTFont(str(source), fontNumber=0, lazy=True).getBestCmap())
    missing = sorted(extras - available)
    if missing:
        print("no Noto Sans CJK glyph for: " + " ".join(f"U+{p:04X}" for p in missing))
    points = cjk_code_points() | (extras & available)
    print(f"catalogs add {len((extras & available) - cjk_code_points())} characters to the CJK subset")
    _subset(source, OUT / "NotoSansCJK-Subset.otf", points)
    _subset(folder / "NotoSansCJK-Bold.ttc", OUT / "NotoSansCJK-Bold-Subset.otf", points)


def main(args: list[str]) -> None:
    """Build the fallback fonts from the unpacked Debian packages (only the CJK subset with --cjk-only)."""
    cjk_only = "--cjk-only" in args
    locales = [LOCALES]
    rest: list[str] = []
    words = iter(a for a in args if a != "--cjk-only")
    for word in words:
        if word == "--locales":
            locales.append(Path(next(words)))
        else:
            rest.append(word)
    root = Path(rest[0] if rest else "/tmp/noto")
    build_cjk(root, locales)
    if not cjk_only:
        noto = root / "usr" / "share" / "fonts" / "truetype" / "noto"
        hebrew = set(range(0x0590, 0x0600)) | set(range(0xFB1D, 0xFB50)) | {0x20, 0x2D}
        arabic = set(range(0x0600, 0x0780)) | set(range(0x08A0, 0x0900)) | set(range(0xFB50, 0xFE00))
        arabic |= set(range(0xFE70, 0xFF00)) | {0x20, 0x200C, 0x200D}
        for weight in ("Regular", "Bold"):
            _subset(noto / f"NotoSansHebrew-{weight}.ttf", OUT / f"NotoSansHebrew-{weight}.ttf", hebrew)
            _subset(noto / f"NotoSansArabic-{weight}.ttf", OUT / f"NotoSansArabic-{weight}.ttf", arabic)
        build_emoji_atlas(noto / "NotoColorEmoji.ttf")
    write_coverage()


if __name__ == "__main__":
    main(sys.argv[1:])
