"""A game's title is found by its key in the current language."""

from __future__ import annotations

from engine.titles import title
from i18n import using


def test_a_title_is_found_by_game_key_in_the_current_language() -> None:
    with using("de"):
        assert (title("fish"), title("tank"), title("flippers")) == (
            "Hey, danke für den Fisch!",
            "10 Gallon Tank",
            "Flippers",
        )
    assert title("fish") == "Hey, That's My Fish!"
