"""Check that text sent to Discord is split or shortened at a word, never cut silently."""

from __future__ import annotations

import pytest

from engine.words import join_list, join_names
from i18n import using
from i18n.numbers import number
from ui.text import (
    ELLIPSIS,
    EMBED_DESCRIPTION,
    EMBED_TOTAL,
    EMBEDS_PER_MESSAGE,
    embed_messages,
    lines_within,
    shorten,
    split_text,
)

PROSE = "The Discus scores double when it is the only fish of its kind in a tank, and ties share the points. " * 60


def test_short_text_is_left_alone() -> None:
    assert shorten("Alice takes group A", 100) == "Alice takes group A"
    assert split_text("one\ntwo", 2000) == ["one\ntwo"]


@pytest.mark.parametrize("limit", [20, 37, 100, 1024])
def test_shortened_text_ends_at_a_whole_word_with_an_ellipsis(limit: int) -> None:
    short = shorten(PROSE, limit)
    assert len(short) <= limit and short.endswith(ELLIPSIS)
    kept = short.removesuffix(ELLIPSIS)
    assert PROSE.startswith(kept) and PROSE[len(kept)] == " "


def test_one_long_word_is_cut_inside_it_but_still_marked() -> None:
    short = shorten("x" * 300, 100)
    assert short == "x" * 99 + ELLIPSIS


@pytest.mark.parametrize("limit", [100, 2000, EMBED_DESCRIPTION])
def test_split_text_loses_no_word_and_breaks_between_words(limit: int) -> None:
    text = "\n\n".join(f"Ruling {i}. {PROSE[: 150 * i]}" for i in range(1, 30))
    pieces = split_text(text, limit)
    assert all(0 < len(p) <= limit for p in pieces)
    assert " ".join(pieces).split() == text.split()
    words = set(text.split())
    assert all(p.split()[0] in words and p.split()[-1] in words for p in pieces)


def test_lines_beyond_the_limit_are_left_out_whole_and_counted() -> None:
    lines = [f"#{i} Hey, That's My Fish! in #general: waiting for Alice" for i in range(100)]
    text = lines_within(lines, 2000)
    assert len(text) <= 2000
    *shown, note = text.split("\n")
    assert shown == lines[: len(shown)]
    assert note == f"…and {100 - len(shown)} more"


def test_embeds_hold_the_whole_text_and_respect_every_embed_limit() -> None:
    text = "\n\n".join([PROSE] * 5)  # about 30,000 characters
    messages = embed_messages("10 Gallon Tank: rules", text)
    assert len(messages) > 1
    for embeds in messages:
        assert len(embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(e.title or "") + len(e.description or "") for e in embeds) <= EMBED_TOTAL
        assert all(len(e.description or "") <= EMBED_DESCRIPTION for e in embeds)
    sent = " ".join(e.description or "" for embeds in messages for e in embeds)
    assert sent.split() == text.split()


def test_the_last_lines_are_kept_when_earlier_ones_must_go() -> None:
    moves = [f"Alice moved A{i}→B{i} and took a 2-fish tile." for i in range(80)]
    text = lines_within([*moves, "<@1>, it's your turn."], 2000, keep_last=1, more="…and {n} more moves")
    *shown, note, ping = text.split("\n")
    assert len(text) <= 2000 and ping == "<@1>, it's your turn."
    assert shown == moves[: len(shown)] and note == f"…and {80 - len(shown)} more moves"


def test_one_line_longer_than_the_limit_is_shortened_at_a_word() -> None:
    text = lines_within([PROSE], 2000)
    assert len(text) <= 2000 and text.endswith(ELLIPSIS)


@pytest.mark.parametrize(
    ("language", "two", "three"),
    [
        ("en", "Ana and Bo", "Ana, Bo and Cy"),
        ("de", "Ana und Bo", "Ana, Bo und Cy"),
        ("es", "Ana y Bo", "Ana, Bo y Cy"),
        ("pt_BR", "Ana e Bo", "Ana, Bo e Cy"),
        ("ja", "AnaとBo", "Ana、BoとCy"),
    ],
)
def test_names_are_listed_as_each_language_writes_them(language: str, two: str, three: str) -> None:
    with using(language):
        assert join_names(["Ana"]) == "Ana"
        assert join_names(["Ana", "Bo"]) == two
        assert join_names(["Ana", "Bo", "Cy"]) == three


def test_numbers_take_the_readers_decimal_and_group_marks() -> None:
    assert (number(1234.5, ",.1f"), number(23.45, ".1f"), join_list(["a", "b"])) == ("1,234.5", "23.4", "a, b")
    with using("de"):
        assert (number(1234.5, ",.1f"), number(1.5, "g")) == ("1.234,5", "1,5")
    with using("ja"):
        assert (number(1234.5, ",.1f"), join_list(["a", "b"])) == ("1,234.5", "a、b")


def test_the_note_about_lines_left_out_reads_in_the_readers_language() -> None:
    lines = [f"Line {i} " + "x" * 60 for i in range(100)]
    with using("es"):
        text = lines_within(lines, 2000)
        continued = [e for message in embed_messages("Reglas", PROSE * 3) for e in message][1].title
    assert text.splitlines()[-1].startswith("…y ") and text.splitlines()[-1].endswith(" más")
    assert continued == "Reglas (continuación)"
