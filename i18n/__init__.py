"""Translate what players read: mark strings with `_`, `ngettext` or `pgettext`, pick the language with `using`.

Strings are English msgids with named placeholders, filled in after translation so each language orders its
own words:

    _("{name} placed a penguin.", name=player)
    ngettext("{n} card", "{n} cards", count)          # `n` is the count unless given
    pgettext("command name", "new")                   # the same English word in another role

Module-level constants are marked with `N_` and translated where they are used (`_(CONSTANT)`).
"""

from __future__ import annotations

from typing import Any

from i18n.catalogs import translations
from i18n.context import current, use_for_task, using
from i18n.languages import ENGLISH, LANGUAGES, from_discord, known

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "N_",
    "_",
    "current",
    "from_discord",
    "known",
    "ngettext",
    "npgettext",
    "pgettext",
    "use_for_task",
    "using",
]


def _fill(text: str, fallback: str, params: dict[str, Any]) -> str:
    """Return `text` with its placeholders filled (the English form when a translation's placeholders are wrong)."""
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return fallback.format(**params)


def _(message: str, /, **params: Any) -> str:
    """Return `message` in the current language with its named placeholders filled in."""
    return _fill(translations(current()).gettext(message), message, params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """Return the form of a counted message the current language uses for `n` (also the `{n}` placeholder)."""
    params.setdefault("n", n)
    english = singular if n == 1 else plural
    return _fill(translations(current()).ngettext(singular, plural, n), english, params)


def pgettext(context: str, message: str, /, **params: Any) -> str:
    """Return `message` as translated for one `context` (a word that is translated differently by role)."""
    return _fill(translations(current()).pgettext(context, message), message, params)


def npgettext(context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """Return a counted message as translated for one `context`."""
    params.setdefault("n", n)
    english = singular if n == 1 else plural
    return _fill(translations(current()).npgettext(context, singular, plural, n), english, params)


def N_(message: str, /) -> str:
    """Return `message` unchanged: mark a constant for the catalogs, to be translated where it is used."""
    return message
