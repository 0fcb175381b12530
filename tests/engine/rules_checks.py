"""Compare a translated rules text with the English one: every line translated, no number or ruling lost."""

from __future__ import annotations

import re
from collections import Counter

from i18n import ENGLISH, LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != ENGLISH]
"""Every shipped language but English, as catalog codes."""

_NUMBER = re.compile(r"\d+")


def numbers(text: str) -> Counter[str]:
    """Return how often each number is written in a text."""
    return Counter(_NUMBER.findall(text))


def assert_whole_translation(english: str, translated: str) -> None:
    """Fail unless every English line has its own translated line and every number survives as often."""
    assert translated != english
    pairs = list(zip(english.split("\n"), translated.split("\n"), strict=True))
    untranslated = [line for line, other in pairs if line.strip() and line == other]
    assert not untranslated, untranslated
    missing = numbers(english) - numbers(translated)
    assert not missing, f"numbers missing from the translation: {dict(missing)}"
