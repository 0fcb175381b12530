"""Find the names players read in the games' data files (data/*.json) for the `data` catalog domain.

Each kind of name has its own message context, so a word that names two things ("Turn" the power, a turn of
play) is translated once per role. The engine translates a name with the same context where it shows it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

GAME_TITLE = "game title"
TEAM_NAME = "team name"
TEAM_SHORT = "team short name"
POWER_NAME = "power name"
POWER_TEXT = "power text"
FOOD_NAME = "Food card name"
FISH_KIND = "fish kind"
TANK_CARD = "Tank card name"
GOAL_NAME = "goal name"
GOAL_TEXT = "goal text"
MARKING = "card marking"

FIELDS: dict[tuple[str | None, str], str] = {
    (None, "title"): GAME_TITLE,
    ("teams", "name"): TEAM_NAME,
    ("teams", "short"): TEAM_SHORT,
    ("powers", "name"): POWER_NAME,
    ("powers", "text"): POWER_TEXT,
    ("food_cards", "name"): FOOD_NAME,
    ("fish", "name"): FISH_KIND,
    ("chest", "name"): TANK_CARD,
    ("goals", "name"): GOAL_NAME,
    ("goals", "text"): GOAL_TEXT,
    ("markings", "label"): MARKING,
}
"""(the list or object a field sits in, the field) -> the context of the names it holds; None is the top level."""

PLURALS: dict[tuple[str, str], str] = {("fish", "name"): "plural"}
"""Fields whose entry also holds a plural form: the pair becomes one counted message."""

TRANSLATOR_NOTES: dict[str, str] = {
    GAME_TITLE: "A game's title: its published title in your language, else keep the English title.",
    TEAM_NAME: "Flippers: a team's species, as a plural.",
    TEAM_SHORT: "Flippers: a team's short name, used in card names ('{team} {power}') and 'Team A & B'.",
    POWER_NAME: "Flippers: the name printed on an Explorer card, the power it has.",
    POWER_TEXT: "Flippers: what the power does, printed on the card.",
    FOOD_NAME: "Flippers: the sea creature a Food card shows.",
    FISH_KIND: "10 Gallon Tank: a kind of aquarium fish (the plural when several cards of it are meant).",
    TANK_CARD: "10 Gallon Tank: a card that is not a fish.",
    GOAL_NAME: "10 Gallon Tank: the name of a goal card.",
    GOAL_TEXT: "10 Gallon Tank: what a goal card asks for; {min} is a number.",
    MARKING: "10 Gallon Tank: the player-count marking printed on a card.",
}

_WORD = re.compile(r"[^\W\d_]")


def names(document: Any, parent: str | None = None) -> Iterator[tuple[str, str | tuple[str, str]]]:
    """Yield (context, name) for every player-read name in a data document; a counted name is (singular, plural)."""
    if isinstance(document, list):
        for item in document:
            yield from names(item, parent)
        return
    if not isinstance(document, Mapping):
        return
    for field, value in document.items():
        context = FIELDS.get((parent, field))
        if context is not None and isinstance(value, str) and _WORD.search(value):
            plural = PLURALS.get((parent or "", field))
            if plural is not None and isinstance(document.get(plural), str):
                yield context, (value, document[plural])
            else:
                yield context, value
        elif isinstance(value, (list, Mapping)):
            yield from names(value, field)


def data_json(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Extract the names of a data file, as Babel's extractors do: (lineno, funcname, messages, comments)."""
    text = fileobj.read().decode("utf-8")
    document = json.loads(text)
    cursor = 0
    for context, name in names(document):
        first = name if isinstance(name, str) else name[0]
        at = text.find(json.dumps(first, ensure_ascii=False), cursor)
        if at >= 0:
            cursor = at
        lineno = text.count("\n", 0, max(at, 0)) + 1
        note = TRANSLATOR_NOTES.get(context)
        comments = [note] if note else []
        if isinstance(name, str):
            yield lineno, "pgettext", (context, name), comments
        else:
            yield lineno, "npgettext", (context, *name), comments
