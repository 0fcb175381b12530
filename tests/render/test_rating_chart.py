"""The rating chart and its alt text write ratings as the language does ("-1,8" in German), like the text."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PIL import ImageDraw

from i18n import using
from render.rating_chart import chart_alt, rating_chart

SERIES = [("Flippers", [-3.25, -1.84, -0.03, 2.25])]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Record every text the chart draws."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, content: str, *args: object, **kwargs: object) -> None:
        texts.append(content)
        original(self, xy, content, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    yield texts


@pytest.mark.parametrize("language", ["de", "es", "pt_BR"])
def test_the_chart_and_its_alt_text_use_the_decimal_comma(language: str, drawn: list[str]) -> None:
    with using(language):
        alt = chart_alt("Ana", SERIES)
        rating_chart("Ana", SERIES, "Ana")
    assert "-3,2" in alt and "2,2" in alt
    assert re.search(r"\d\.\d", alt) is None, alt
    heading = next(text for text in drawn if text.startswith("Flippers"))
    assert heading.endswith("2,2"), drawn
    assert not any("-0" in text or re.search(r"\d\.\d", text) for text in drawn), drawn


def test_english_keeps_the_decimal_point(drawn: list[str]) -> None:
    assert "from -3.2 to 2.2" in chart_alt("Ana", SERIES)
    rating_chart("Ana", SERIES, "Ana")
    assert any(text.endswith(": 2.2") for text in drawn)


@pytest.mark.parametrize("language", ["de", "es", "ja", "pt_BR"])
def test_the_caption_says_which_side_is_oldest_in_full(language: str, drawn: list[str]) -> None:
    series = [("Flippers", [float(n % 7) for n in range(20)])]
    with using(language):
        rating_chart("Ana", series, "Ana")
    assert not any("…" in text for text in drawn), drawn
