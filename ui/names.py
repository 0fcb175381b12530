"""Name computer players and the seats they take over, in the language of the game they join."""

from __future__ import annotations

from i18n import LANGUAGES, _, pgettext, using

BOT_MARK = "\x00"


def level_name(level: str) -> str:
    """Return a computer player's level ("easy", "hard") as players read it."""
    if level == "hard":
        return pgettext("computer player level", "hard")
    if level == "easy":
        return pgettext("computer player level", "easy")
    return level


def bot_name(number: int, level: str) -> str:
    """Return the seat name of the `number`th computer player of a lobby ("Bot 2 (hard)")."""
    return _("Bot {number} ({level})", number=number, level=level_name(level))


def bot_seat_name(name: str) -> str:
    """Return the name of a person's seat once a computer player plays it ("Ana (bot)")."""
    return _("{name} (bot)", name=name)


def person_name(name: str) -> str:
    """Return the person's name in a seat a computer player took over, in whichever language it was named."""
    for language in LANGUAGES:
        with using(language):
            before, _mark, after = bot_seat_name(BOT_MARK).partition(BOT_MARK)
        if len(name) > len(before) + len(after) and name.startswith(before) and name.endswith(after):
            return name[len(before) : len(name) - len(after)]
    return name
