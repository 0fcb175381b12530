"""Check the font fallback chain that draws player names in any script."""

from __future__ import annotations

from functools import cache

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw

from render import common
from render.common import (
    ALT_LIMIT,
    ALT_MORE,
    ARABIC,
    CJK,
    DEJAVU,
    EMOJI,
    FONT_DIR,
    FONT_FILES,
    HEBREW,
    MISSING,
    draw_text,
    fit_alt,
    fit_text,
    runs_of,
    text_length,
)

LONG_NAME = "Maximilian Alexander Fitzgerald!"  # 32 characters
NAMES = ["山田太郎", "Ёлка", "🐧 Pingu", "שלום", "مرحبا", LONG_NAME, "김민수 さくら", "Ωμέγα ☃ 🎲", "Bob مرحبا"]


@cache
def cmap(file: str) -> frozenset[int]:
    """Return the code points a shipped font really maps."""
    return frozenset(TTFont(str(FONT_DIR / file), lazy=True).getBestCmap())


def covers(face: str, char: str, bold: bool = False) -> bool:
    """Tell whether the font drawn for `face` has a glyph for `char`."""
    if face == EMOJI:
        return ord(char) in common._emoji_index()[2]
    return ord(char) in cmap(FONT_FILES[face][bold])


def render(text: str, size: int = 24, mode: str = "RGB", anchor: str = "la") -> Image.Image:
    """Draw `text` on a blank picture."""
    image = Image.new(mode, (520, 60), "white")
    draw_text(ImageDraw.Draw(image), (10, 12), text, size, "black", anchor=anchor)
    return image


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bold", [False, True])
def test_every_glyph_of_a_name_comes_from_a_font_that_has_it(name: str, bold: bool) -> None:
    runs = runs_of(name)
    assert all(covers(run.face, char, bold) for run in runs for char in run.text)
    assert MISSING not in "".join(run.text for run in runs)


def test_each_script_is_drawn_with_its_own_font() -> None:
    assert [run.face for run in runs_of("山田太郎")] == [CJK]
    assert [run.face for run in runs_of("Ёлка")] == [DEJAVU]
    assert [run.face for run in runs_of("שלום")] == [HEBREW]
    assert [run.face for run in runs_of("مرحبا")] == [ARABIC]
    assert [(run.face, run.text) for run in runs_of("🐧 Pingu")] == [(EMOJI, "🐧"), (DEJAVU, " Pingu")]


def test_a_right_to_left_name_stays_before_the_english_words_that_follow_it() -> None:
    assert [(run.face, run.text) for run in runs_of("مرحبا (start)")] == [(ARABIC, "مرحبا"), (DEJAVU, " (start)")]
    assert [(run.face, run.text) for run in runs_of("שלום עולם!")] == [(HEBREW, "שלום עולם"), (DEJAVU, "!")]
    assert [run.face for run in runs_of("Bob مرحبا")] == [DEJAVU, ARABIC]


def test_a_character_no_font_has_becomes_a_question_mark_not_a_box() -> None:
    runs = runs_of("a\U00012000b")  # a cuneiform sign: in none of the shipped fonts
    assert [(run.face, run.text) for run in runs] == [(DEJAVU, f"a{MISSING}b")]
    assert render("a\U00012000b").tobytes() == render(f"a{MISSING}b").tobytes()


def test_invisible_marks_no_font_has_are_left_out_not_replaced() -> None:
    assert "".join(run.text for run in runs_of("\u2067Bob\u200f\u2069\U000e0001")) == "Bob"


def test_emoji_modifiers_and_joiners_are_dropped_so_the_base_emoji_shows() -> None:
    runs = runs_of("👍🏽 👨‍👩‍👧 ❤️ ❤")
    assert [(run.face, run.text) for run in runs] == [
        (EMOJI, "👍"),
        (DEJAVU, " "),
        (EMOJI, "👨👩👧"),
        (DEJAVU, " "),
        (EMOJI, "❤"),  # with the emoji variation selector
        (DEJAVU, " ❤"),  # without it: the text heart
    ]
    assert all(covers(run.face, char) for run in runs for char in run.text)


def test_the_coverage_table_matches_the_fonts() -> None:
    coverage = common._coverage()
    for face, (regular, _) in FONT_FILES.items():
        points = cmap(regular)
        assert all(p in coverage[face] for p in points)
        assert not any(p in coverage[face] for p in range(0x20, 0x30000, 97) if p not in points)


@pytest.mark.parametrize("name", ["山田太郎", "🐧 Pingu", "שלום", "مرحبا"])
def test_names_in_other_scripts_draw_differently_from_dejavu_boxes(name: str) -> None:
    image = render(name)
    tofu = Image.new("RGB", image.size, "white")
    ImageDraw.Draw(tofu).text((10, 12), name, font=common.font(24), fill="black")
    assert ImageChops.difference(image, tofu).getbbox() is not None
    assert ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox() is not None


def test_emoji_are_drawn_in_colour_on_rgb_pictures_and_in_ink_on_palette_pictures() -> None:
    colours = {c for _, c in render("🐧", size=40).getcolors(10_000)}
    assert len(colours) > 20
    grey = render("🐧", size=40, mode="L")
    assert grey.getextrema() == (0, 255)


def test_mixed_scripts_share_one_baseline_whatever_the_anchor() -> None:
    for anchor in ("la", "lm", "ls", "lb", "mm", "rs"):
        mixed = render("Ab 山", anchor=anchor).crop((10, 0, 30, 60)).getbbox()
        plain = render("Ab", anchor=anchor).crop((10, 0, 30, 60)).getbbox()
        assert mixed == plain


def test_widths_add_up_and_long_names_are_shortened_with_an_ellipsis() -> None:
    assert text_length("🐧 Pingu", 20) > text_length(" Pingu", 20)
    assert text_length("山田太郎", 20) == pytest.approx(80, abs=4)
    for name in (LONG_NAME, "山田太郎山田太郎山田太郎山田太郎", "مرحبا مرحبا مرحبا مرحبا"):
        short = fit_text(name, 20, 120)
        assert short.endswith("…")
        assert text_length(short, 20) <= 120
    assert fit_text("Ёлка", 20, 120) == "Ёлка"


def test_without_complex_layout_right_to_left_runs_are_reversed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "COMPLEX_LAYOUT", False)
    assert [(run.face, run.text) for run in runs_of("שלום")] == [(HEBREW, "םולש")]
    assert [(run.face, run.text) for run in runs_of("Ёлка")] == [(DEJAVU, "Ёлка")]


def test_bold_cjk_is_drawn_with_the_bold_weight_never_an_outline(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, content: str, *args: object, **kwargs: object) -> None:
        calls.append({"font": kwargs["font"], **kwargs})
        original(self, xy, content, *args, **kwargs)  # type: ignore[arg-type]

    def ink(bold: bool) -> int:
        image = Image.new("L", (200, 50), 255)
        draw_text(ImageDraw.Draw(image), (5, 5), "山田太郎", 28, 0, bold=bold)
        return sum(count for value, count in enumerate(image.histogram()) if value < 128)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    assert ink(True) > 1.2 * ink(False)
    bold = calls[0]  # ink(True) drew first
    assert bold["font"].getname()[1] == "Bold" and not bold.get("stroke_width")  # type: ignore[attr-defined]
    assert FONT_FILES[CJK][0] != FONT_FILES[CJK][1]


def test_fit_alt_takes_the_fullest_version_that_fits() -> None:
    assert fit_alt("a" * 1025, "b" * 1024, "c") == "b" * 1024
    assert fit_alt("short.") == "short."


def test_fit_alt_cuts_only_at_a_sentence_and_says_so() -> None:
    text = fit_alt(" ".join(["Ana moves."] * 200))
    assert len(text) <= ALT_LIMIT and text.endswith("Ana moves." + ALT_MORE)
