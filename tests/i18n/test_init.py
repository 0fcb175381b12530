"""Marked strings come back in the chosen language with their placeholders filled."""

from __future__ import annotations

from i18n import N_, _, ngettext, pgettext, using
from i18n.context import current


def test_english_is_the_default_and_placeholders_are_filled_by_name() -> None:
    assert current() == "en"
    assert _("{name} placed a penguin.", name="Ana") == "Ana placed a penguin."
    assert ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert ngettext("{n} card", "{n} cards", 3) == "3 cards"
    assert pgettext("command name", "new") == "new"
    assert N_("A constant.") == "A constant."


def test_using_sets_the_language_for_the_block_only() -> None:
    with using("ja"):
        assert current() == "ja"
        with using("de"):
            assert current() == "de"
        assert current() == "ja"
    assert current() == "en"
    with using("klingon"):
        assert current() == "en"


def test_a_message_without_a_translation_stays_english() -> None:
    with using("de"):
        assert _("Nobody has translated {thing}.", thing="this") == "Nobody has translated this."
