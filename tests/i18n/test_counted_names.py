"""Check that every message naming a list of people agrees in number with how many it names, in every language.

Each message is rendered with one name and with three: with one, no language may use a plural verb or address
the person as many ("euren", "vocês", "elijan"); with three, the plural form is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace

import pytest

from engine.flippers.state import SETUP
from engine.flippers.text import status
from engine.takeback import describe_takeback, takeback_event
from i18n import LANGUAGES, using
from render.flippers.reading import _headline
from ui.pings import your_turn
from ui.scheduler import forfeited, reminder, timed_out
from ui.takeback_plans import prompt

ONE = ["Ana"]
THREE = ["Ana", "Bo", "Cy"]
LINK = "https://discord.com/channels/1/2/3"


def _setup_status(people: Sequence[str]) -> str:
    return status(SimpleNamespace(phase=SETUP), list(people), list(range(len(people))))  # type: ignore[arg-type]


def _setup_headline(people: Sequence[str]) -> str:
    view = {"final": False, "teams_mode": False, "winners": [], "phase": "setup", "to_act": list(range(len(people)))}
    return _headline(view, list(people))


def _agreed(people: Sequence[str]) -> str:
    event = takeback_event(9, [4], ["Zed moved"], list(range(len(people))))
    names = [*people, *[""] * (9 - len(people)), "Zed"]
    return describe_takeback(event, names)


MESSAGES: dict[str, Callable[[Sequence[str]], str]] = {
    "flippers setup status": _setup_status,
    "flippers setup headline": _setup_headline,
    "takeback agreed by": _agreed,
    "takeback request": lambda people: prompt("Zed", ["Zed moved."], people),
    "takeback request, last move": lambda people: prompt("Zed", [], people),
    "reminder": lambda people: reminder(people, "Flippers", 9, 12, None),
    "reminder with link": lambda people: reminder(people, "Flippers", 9, 12, LINK),
    "timed out": lambda people: timed_out(people, 12),
    "forfeited": lambda people: forfeited(people, 48),
    "your turn": your_turn,
}

PLURAL_ONLY = {
    "en": ["everyone accepts"],
    "de": ["Zugestimmt haben", "haben nicht", "gewählt haben", "euren", "ihr ", "Nehmt", "lehnt ab", " wählen", "alle"],
    "es": ["elijan", "eligen", "aceptaron", "jugaron", "todos aceptan", "ustedes"],
    "pt_BR": ["escolherem", "concordaram", "jogaram", "aceitem", "recusem", "vocês", "todos aceitarem"],
    "ja": [],
}
"""Words that only a message addressing or naming several people may use, per language."""

SINGULAR_ONLY = {
    "en": ["if you accept"],
    "de": ["Zugestimmt hat ", "hat nicht", "gewählt hat", "deinen", " du ", "Nimm", "lehne ab", " wählt "],
    "es": ["elija ", "elige ", "aceptó", " jugó", "aceptas", " tu ", "es tu turno"],
    "pt_BR": ["escolher ", "concordou", " jogou", "aceite ", "recuse ", "você "],
    "ja": [],
}
"""Words that only a message addressing or naming one person may use, per language."""


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("message", sorted(MESSAGES))
def test_a_message_naming_one_person_uses_the_singular(message: str, language: str) -> None:
    with using(language):
        one, three = MESSAGES[message](ONE), MESSAGES[message](THREE)
    assert "Ana" in one and "Cy" in three
    assert "Bo" in three and three.index("Bo") < three.index("Cy")  # joined as one list of names
    assert not [word for word in PLURAL_ONLY[language] if word in one], one
    assert not [word for word in SINGULAR_ONLY[language] if word in three], three


@pytest.mark.parametrize("language", sorted(code for code in LANGUAGES if code != "ja"))
def test_the_names_are_joined_as_a_sentence_lists_them(language: str) -> None:
    with using(language):
        three = reminder(["<@1>", "<@2>", "<@3>"], "Flippers", 9, 12, None)
    assert "<@1>, <@2>" in three and "<@2> <@3>" not in three
