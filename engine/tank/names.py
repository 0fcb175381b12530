"""Name 10 Gallon Tank's fish kinds, cards and goals in the current language (from data/tank.json)."""

from __future__ import annotations

from engine.tank.cards import CARDS
from engine.tank.data import RULES
from engine.words import per_language
from i18n import _, npgettext, pgettext
from i18n.extractors import FISH_KIND, GAME_TITLE, GOAL_NAME, GOAL_TEXT, TANK_CARD


@per_language
def title() -> str:
    """Return the game's title in the current language."""
    return pgettext(GAME_TITLE, RULES.title)


@per_language
def kind_name(kind: str, n: int = 1) -> str:
    """Return a card kind's name in the number `n` asks for: "Guppy", "Guppies" (fish kind key or "chest")."""
    info = RULES.kind(kind)
    if not info.is_fish:
        return pgettext(TANK_CARD, info.name)
    return npgettext(FISH_KIND, info.name, info.plural, n)


@per_language
def card_name(card_id: str) -> str:
    """Return a card's name as printed: its kind, and its value for a Molly ("Molly 3")."""
    card = CARDS[card_id]
    if card.value is None:
        return kind_name(card.kind)
    # TRANSLATORS: a fish card with a printed value, e.g. "Molly 3".
    return _("{fish} {value}", fish=kind_name(card.kind), value=card.value)


@per_language
def goal_name(goal: str) -> str:
    """Return a goal card's name by key, e.g. "Big School"."""
    return pgettext(GOAL_NAME, RULES.goal(goal).name)


@per_language
def goal_text(goal: str) -> str:
    """Return what a goal card asks for, its number filled in: "At least 6 fish of one type"."""
    info = RULES.goal(goal)
    return pgettext(GOAL_TEXT, info.template, min=info.minimum)
