"""Write numbers the way the current language does: its decimal and group marks, never a minus zero."""

from __future__ import annotations

from babel.numbers import get_decimal_symbol, get_group_symbol

from i18n.context import current
from i18n.languages import ENGLISH


def number(value: float, spec: str = "") -> str:
    """Return a number formatted with a Python format spec, in the current language's decimal and group marks."""
    text = format(value, spec)
    if text.startswith("-") and not any(char in "123456789" for char in text):
        text = text[1:]  # -0.04 rounded to "-0.0" reads as a negative rating; it is zero
    language = current()
    if language == ENGLISH:
        return text
    marks = {".": get_decimal_symbol(language), ",": get_group_symbol(language)}
    return "".join(marks.get(char, char) for char in text)
