"""Every catalog keeps its language's glossary (locales/<language>/glossary.toml): one term per concept.

A forbidden variant in any translation fails; a message whose English names a concept uses the chosen term;
a game's title is its edition's title, and inside a sentence it stands in the language's quotation marks.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from i18n.catalogs import LOCALES, po_files, read_catalog

LANGUAGES = ("de", "es", "ja", "pt_BR")
TITLE_PLACEHOLDERS = ("{title}", "{game}")
"""Placeholders that stand for a game's title wherever they are in a sentence."""
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
IDENTIFIERS = ("option name", "command name")
"""Contexts of names typed in commands, which may stay short or English."""
STOPS = (".", "!", "?", "。", "！", "？")
SENTENCE_END = re.compile(r"[.!?](\s|$)|[。！？]")
LABEL_AFTER = (":", ",", ".", "：", "、", "。", ")", "）")
"""What follows a title that heads a line rather than sits in a sentence ("Flippers: rules", "10 Gallon Tank, …")."""


@dataclass(frozen=True)
class Text:
    """One translation in a catalog: where it is, its English and its translated text (one plural form)."""

    where: str
    context: str | None
    english: str
    text: str


@cache
def glossary(language: str) -> dict[str, Any]:
    """Return a language's glossary."""
    return tomllib.loads((LOCALES / language / "glossary.toml").read_text(encoding="utf-8"))


@cache
def texts(language: str) -> tuple[Text, ...]:
    """Return every translated form of every message of a language's catalogs."""
    found = []
    for path in po_files(language):
        for message in read_catalog(path, language):
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            english = " ".join(ids)
            found += [Text(path.name, message.context, english, s) for s in strings if s]
    return tuple(found)


def forbidden_uses(language: str) -> Iterator[str]:
    """Yield each translation that holds a variant the glossary forbids."""
    for term in glossary(language).get("terms", []):
        for variant in term["forbidden"]:
            pattern = re.compile(variant)
            for t in texts(language):
                if pattern.search(PLACEHOLDER.sub("", t.text)):
                    yield f"{t.where}: {t.english!r} -> {t.text!r} uses {variant!r} (say {term['use']!r})"


def missing_terms(language: str) -> Iterator[str]:
    """Yield each translation whose English names a concept but which does not use the chosen term."""
    for term in glossary(language).get("terms", []):
        english, use = re.compile(term["english"], re.IGNORECASE), re.compile(term["use"])
        for t in texts(language):
            named = english.search(PLACEHOLDER.sub("", t.english))  # "{rating}" is a number, not the word
            if named and t.context not in IDENTIFIERS and not use.search(t.text):
                yield f"{t.where}: {t.english!r} -> {t.text!r} does not say {term['use']!r}"


def in_a_sentence(text: str, start: int, end: int) -> bool:
    """Tell whether the title at text[start:end] sits inside a sentence rather than heading a line or a label."""
    rest = (text[:start] + text[end:]).rstrip()
    ends = rest.endswith(STOPS) or SENTENCE_END.search(text[end:]) is not None  # "… wartet auf euch. Link: {link}"
    if not ends or text[:start].endswith(("(", "（", "**", "#")):
        return False
    return not (start == 0 and text[end:].startswith(LABEL_AFTER))


def unquoted_titles(language: str) -> Iterator[str]:
    """Yield each translation with a game's title (or its placeholder) in a sentence without the quotes."""
    marks = glossary(language)["quotes"]
    titles = [*glossary(language)["titles"].values(), *TITLE_PLACEHOLDERS]
    for t in texts(language):
        for title in titles:
            for found in re.finditer(re.escape(title), t.text):
                start, end = found.span()
                quoted = t.text[:start].endswith(marks["open"]) and t.text[end:].startswith(marks["close"])
                if in_a_sentence(t.text, start, end) and not quoted:
                    yield f"{t.where}: {t.text!r} leaves {title} unquoted ({marks['open']}…{marks['close']})"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translation_uses_a_forbidden_variant(language: str) -> None:
    assert list(forbidden_uses(language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_concept_is_named_with_its_one_term(language: str) -> None:
    assert list(missing_terms(language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_game_titles_are_the_editions_titles_and_quoted_inside_sentences(language: str) -> None:
    titles = glossary(language)["titles"]
    named = {t.english: t.text for t in texts(language) if t.context in ("game title", "choice name")}
    assert {english: named[english] for english in titles if english in named} == titles
    assert list(unquoted_titles(language)) == []


def test_the_checks_catch_a_variant_a_missing_term_and_an_unquoted_title(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = (
        Text("engine.po", None, "{card} is under a Block marker.", "{card} liegt unter einem Block-Marker."),
        Text("ui.po", None, "It's your turn in {title}.", "Du bist am Zug in {title}."),
        Text("ui.po", None, "{title}: rules", "{title}: Regeln"),
        Text("ui.po", None, "Game #{id} ({title}) has no moves.", "Spiel #{id} ({title}) hat keine Züge."),
        Text("ui.po", None, "Flippers needs 2 players.", "„Flippers“ braucht 2 Spieler."),
    )
    monkeypatch.setitem(globals(), "texts", lambda language: bad)
    assert len(list(forbidden_uses("de"))) == 2  # "Block-Marker", and "Marker" not in "Blockmarker"
    assert len(list(missing_terms("de"))) == 1
    assert [line.split(": ", 1)[1] for line in unquoted_titles("de")] == [
        "'Du bist am Zug in {title}.' leaves {title} unquoted („…“)"
    ]
