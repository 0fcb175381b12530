"""Name the cards of frozen Flippers rules in the current language, from the English names they were frozen with."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.flippers.names import direction  # noqa: F401 - the old versions name directions alike
from i18n import _, pgettext
from i18n.extractors import FOOD_NAME, POWER_NAME, POWER_TEXT, TEAM_NAME, TEAM_SHORT


def power_name(english: str) -> str:
    """Return a power's printed name in the current language ("" stays "")."""
    return pgettext(POWER_NAME, english) if english else ""


def power_text(english: str) -> str:
    """Return a power's printed text in the current language ("" stays "")."""
    return pgettext(POWER_TEXT, english) if english else ""


def team_name(team: Mapping[str, str]) -> str:
    """Return a team's species in the current language."""
    english = team["name"]
    return pgettext(TEAM_NAME, english)


def team_short(team: Mapping[str, str]) -> str:
    """Return a team's short name in the current language."""
    english = team["short"]
    return pgettext(TEAM_SHORT, english)


def card_name(card: Any, teams: Sequence[Mapping[str, str]], power_names: Mapping[str, str]) -> str:
    """Return a frozen card's name: a Food card's creature, or an Explorer's team and power."""
    if card.team is None:
        return pgettext(FOOD_NAME, card.name)
    # TRANSLATORS: an Explorer card's name: its team's short name and its power, e.g. "Chinstrap Flip".
    return _("{team} {power}", team=team_short(teams[card.team]), power=power_name(power_names[card.power]))
