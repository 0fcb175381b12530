"""Check that every cog's button labels, menu placeholders and fixed option labels fit Discord whole in every language.

The components shorten what is too long at a word, with an ellipsis; these labels must never need it.
"""

from __future__ import annotations

import pytest

from i18n import LANGUAGES, _, ngettext, using
from ui.text import BUTTON_LABEL, LABEL, PLACEHOLDER

LONGEST_NAME = "W" * 32
"""A Discord display name is at most 32 characters."""


def _buttons() -> list[str]:
    """Return the buttons the game cogs put on boards."""
    return [_("How scoring works"), _("Show my hand"), _("Choose your discards"), _("Play a card…")]


def _placeholders() -> list[str]:
    """Return the placeholders of the game cogs' menus, filled with the longest values they take."""
    power = "Replace"
    return [
        _("Place a penguin on…"),
        _("Move a penguin: pick it first…"),
        _("Move {tile} to…", tile="H10"),
        _("Split a group…"),
        _("Take a group…"),
        ngettext(
            "Gourami: discard a fish ({n} left), or keep all…", "Gourami: discard a fish ({n} left), or keep all…", 9
        ),
        ngettext("Discard {n} card…", "Discard {n} cards…", 3),
        _("{player}: place your Leader…", player=LONGEST_NAME),
        _("Play which card…"),
        _("Activate next…"),
        _("Another cell…"),
        _("Another cell: its row first…"),
        _("Pick a row first…"),
        _("Play {power} on…", power=power),
        _("Play {power} on… facing…", power=power),
        _("On {cell}: play…", cell="N14"),
        _("{power} on {cell} faces…", power=power, cell="N14"),
    ]


def _options() -> list[str]:
    """Return option labels and descriptions with fixed words."""
    return [
        _("Keep all my fish"),
        _("Discard nothing"),
        _("Split group {group} along {line}", group="12", line="v3"),
        _("Take group {group}", group="12"),
        _("Row {row}", row=29),
        ngettext("{n} open cell", "{n} open cells", 28),
        ngettext("{n} possible move", "{n} possible moves", 18),
    ]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_labels_fit_discord_whole_in_every_language(language: str) -> None:
    with using(language):
        buttons, placeholders, options = _buttons(), _placeholders(), _options()
    assert [b for b in buttons if len(b) > BUTTON_LABEL] == []
    assert [p for p in placeholders if len(p) > PLACEHOLDER] == []
    assert [o for o in options if len(o) > LABEL] == []
    if language != "en":
        with using("en"):
            english = _buttons() + _placeholders() + _options()
        assert [e for e, t in zip(english, buttons + placeholders + options, strict=True) if e == t] == []
