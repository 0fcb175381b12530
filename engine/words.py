"""Word what players read: quote what they typed, and count things with the right plural.

Pure string functions with no Discord import, so the engines, the renderers and ui/ share one wording.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, wraps
from typing import ParamSpec, TypeVar

import i18n
from i18n import _, current, pgettext

P = ParamSpec("P")
R = TypeVar("R")

ELLIPSIS = "…"
QUOTE_LIMIT = 40
"""The most characters of typed input echoed back in a reply; longer input is shortened with an ellipsis."""

_MARKDOWN = re.compile(r"([\\*_~`|\[\]])")
_MENTION = re.compile(r"@(everyone|here|[!&]?\d)")


def quote(typed: object, limit: int = QUOTE_LIMIT) -> str:
    """Return what a player typed, as typed, in double quotes safe for a Discord message.

    Markdown is escaped (so `\\Flip` shows one backslash), mentions cannot ping, line breaks become spaces, and
    input longer than `limit` characters is shortened with "…". Never Python's repr.
    """
    text = " ".join(str(typed).split()) if typed is not None else ""
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + ELLIPSIS
    text = _MARKDOWN.sub(r"\\\1", text)
    text = _MENTION.sub("@\u200b\\1", text)
    return f'"{text}"'


IRREGULAR = {"fish": "fish", "discus": "discus", "angelfish": "angelfish"}


def plural(n: int, one: str, many: str | None = None) -> str:
    """Return "1 card", "0 cards", "2 cards": the count with the word in the number it takes.

    `many` names an irregular plural ("fish"); a few are known already.
    """
    if n == 1 or n == -1:
        return f"{n} {one}"
    return f"{n} {many or IRREGULAR.get(one) or _regular(one)}"


def _regular(word: str) -> str:
    """Return the regular English plural of `word`."""
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    return word + "s"


def sentence(text: str) -> str:
    """Return `text` ending with one full stop: none is added after a "." , "!" or "?" it already ends with."""
    text = text.rstrip()
    if text.endswith((".", "!", "?", "…", "。", "！", "？")):
        return text
    # TRANSLATORS: the full stop added to a sentence that has none (Japanese: "。").
    return text + pgettext("sentence end", ".")


def per_language(function: Callable[P, R]) -> Callable[P, R]:
    """Remember a naming function's results per language: they depend only on its arguments and the language.

    For the names read from data (card, fish, power names): views ask for them dozens of times per image.
    Only for functions returning immutable values (strings). Results are kept per catalog, not per language
    code: a catalog put in a language's place (a test's) must not leave its words behind under that code.
    """
    remembered = cache(lambda catalog, *args, **kwargs: function(*args, **kwargs))

    @wraps(function)
    def named(*args: P.args, **kwargs: P.kwargs) -> R:
        return remembered(i18n.translations(current()), *args, **kwargs)  # type: ignore[no-any-return]

    return named


def join_list(parts: Sequence[str]) -> str:
    """Return items listed with the current language's separator: "A, B, C"."""
    # TRANSLATORS: the separator between the items of a list, "A, B, C" (Japanese: "、").
    return pgettext("list separator", ", ").join(parts)


def join_last(parts: Sequence[str], last: str) -> str:
    """Return "A, B & C": the language's list separator between the items, `last` (a translated " & ") before the last.

    Two or more teams or names read as one list ("Team Macaroni, Weddell & Elephant"), never "A & B & C".
    """
    if len(parts) <= 1:
        return "".join(parts)
    return join_list(parts[:-1]) + last + parts[-1]


def join_names(parts: Sequence[str]) -> str:
    """Return "Ana", "Ana and Bo" or "Ana, Bo and Cy" in the current language."""
    if len(parts) <= 1:
        return "".join(parts)
    # TRANSLATORS: the last two items of a list of names, "Ana and Bo"; {first} may itself be "Ana, Bo".
    return _("{first} and {last}", first=join_list(parts[:-1]), last=parts[-1])
