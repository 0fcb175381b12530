"""Find where a line of text may break: after a space, between Japanese phrases, never inside a name.

Japanese writes without spaces, so its lines break between the phrases BudouX finds (a word with its particle:
"ネオンテトラを"), never inside a word. A name of several words ("Cofre del tesoro", "Ne Tetras neón") is kept
on one line when the caller names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

import budoux

NO_BREAK_BEFORE = frozenset("、。，．・：；？！ー）」』】〕…,.:;!?)")
"""Characters a wrapped line never starts with (Japanese line-breaking rules, and Latin punctuation)."""

GLUE = "\u00a0"
"""A space no line breaks at (it joins a separator dot to the word before it)."""

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")


@cache
def _parser() -> budoux.Parser:
    """Load BudouX's Japanese model once per process."""
    return budoux.load_default_japanese_parser()


def _phrase_breaks(word: str) -> list[int]:
    """Return the offsets inside a word without spaces where BudouX ends a Japanese phrase."""
    if not _JAPANESE.search(word):
        return []
    offsets, at = [], 0
    for phrase in _parser().parse(word)[:-1]:
        at += len(phrase)
        offsets.append(at)
    return offsets


def _kept(text: str, keep: Sequence[str]) -> list[tuple[int, int]]:
    """Return the spans of `text` that hold a phrase to keep on one line."""
    spans = []
    for phrase in keep:
        if not phrase:
            continue
        start = text.find(phrase)
        while start >= 0:
            spans.append((start, start + len(phrase)))
            start = text.find(phrase, start + 1)
    return spans


@lru_cache(maxsize=4096)
def pieces(text: str, keep: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Split `text` into the pieces a line may break between; joined, they give `text` back.

    A piece ends after a space (kept on the piece, dropped where the line breaks) or at the end of a Japanese
    phrase; no piece starts with closing punctuation, and none ends inside a phrase of `keep`.
    """
    breaks: set[int] = set()
    at = 0
    for word in text.split(" "):
        breaks.update(at + offset for offset in _phrase_breaks(word))
        at += len(word) + 1
        breaks.add(at)
    spans = _kept(text, keep)
    cuts = sorted(
        b
        for b in breaks
        if 0 < b < len(text)
        and text[b] not in NO_BREAK_BEFORE
        and GLUE not in (text[b - 1], text[b])
        and not any(start < b < end for start, end in spans)
    )
    return tuple(text[i:j] for i, j in zip([0, *cuts], [*cuts, len(text)], strict=True))
