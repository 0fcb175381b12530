"""Check that a seat a computer player took over gives its person's name back, whatever language named it."""

from __future__ import annotations

import pytest

from i18n import LANGUAGES, using
from ui.names import bot_seat_name, person_name


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_rematch_gives_the_person_their_own_name_back(language: str) -> None:
    with using(language):
        taken_over = bot_seat_name("Ana (bot) Lima")
    assert taken_over != "Ana (bot) Lima"
    assert person_name(taken_over) == "Ana (bot) Lima"


def test_a_name_no_computer_player_took_is_left_as_it_is() -> None:
    assert person_name("Bot 1 (easy)") == "Bot 1 (easy)"
    assert person_name(" (bot)") == " (bot)"
    with using("ja"):
        assert bot_seat_name("Ana") == "Ana（ボット）"
