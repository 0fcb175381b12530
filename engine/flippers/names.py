"""Name Flippers' cards, powers and teams in the current language (the names come from data/flippers.json)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.flippers.cards import CARDS, FOOD, POWER_NAMES, POWER_TEXT, TEAMS
from engine.flippers.table import DIRECTIONS, WORDS
from engine.words import join_last, per_language
from i18n import _, current, pgettext
from i18n.extractors import FOOD_NAME, POWER_NAME, TEAM_NAME, TEAM_SHORT
from i18n.extractors import POWER_TEXT as POWER_TEXT_CONTEXT


@per_language
def power_name(power: str | None) -> str:
    """Return the name of a power by key ("flip" -> "Flip"), "" for none."""
    english = POWER_NAMES.get(power or "", "")
    return pgettext(POWER_NAME, english) if english else ""


@per_language
def power_text(power: str | None) -> str:
    """Return what a power does, as printed on its card, "" for none."""
    english = POWER_TEXT.get(power or "", "")
    return pgettext(POWER_TEXT_CONTEXT, english) if english else ""


@per_language
def team_name(team: int) -> str:
    """Return a team's species by index, e.g. "Chinstrap Penguins"."""
    english = TEAMS[team]["name"]
    return pgettext(TEAM_NAME, english)


@per_language
def team_short(team: int) -> str:
    """Return a team's short name by index, e.g. "Chinstrap"."""
    english = TEAMS[team]["short"]
    return pgettext(TEAM_SHORT, english)


@per_language
def food_name(card_id: str) -> str:
    """Return the creature a Food card shows, e.g. "Krill"."""
    return pgettext(FOOD_NAME, CARDS[card_id].name)


@per_language
def card_name(card_id: str) -> str:
    """Return a card's name: a Food card's creature, or an Explorer's team and power ("Chinstrap Flip")."""
    card = CARDS[card_id]
    if card.kind == FOOD:
        return food_name(card_id)
    # TRANSLATORS: an Explorer card's name: its team's short name and its power, e.g. "Chinstrap Flip".
    return _("{team} {power}", team=team_short(card.team or 0), power=power_name(card.power))


def team_of(seats: Iterable[int]) -> str:
    """Return a Team Up side's one name, its species joined: "Team Chinstrap & Emperor"."""
    # TRANSLATORS: a side of two or three Flippers teams playing together; {species} is "Chinstrap & Emperor".
    return _("Team {species}", species=_join_teams([team_short(s) for s in seats]))


def _join_teams(shorts: list[str]) -> str:
    """Return team short names joined with "&"."""
    # TRANSLATORS: joins the last two short names of teams playing on one side, "Chinstrap & Emperor"; with three,
    # the list separator comes first: "Macaroni, Weddell & Elephant".
    return join_last(shorts, _(" & "))


@per_language
def direction(compass: str) -> str:
    """Return a direction's word by its letter: "N" -> "north"."""
    words = {
        "N": pgettext("direction", "north"),
        "E": pgettext("direction", "east"),
        "S": pgettext("direction", "south"),
        "W": pgettext("direction", "west"),
    }
    return words[compass]


@per_language
def compass_letter(compass: str) -> str:
    """Return a direction's letter as the current language abbreviates it: "E" -> "O" (Osten) in German."""
    # TRANSLATORS: the compass letters of north, east, south and west, one letter (or character) each, as your
    # language abbreviates them; players may type them to say where a card points.
    letters = {
        "N": pgettext("compass", "N"),
        "E": pgettext("compass", "E"),
        "S": pgettext("compass", "S"),
        "W": pgettext("compass", "W"),
    }
    return letters[compass]


def compass_letters() -> str:
    """Return the four letters a player may type for a facing, as a choice: "N, O, S oder W"."""
    n, e, s, w = (compass_letter(d) for d in DIRECTIONS)
    return _("{n}, {e}, {s} or {w}", n=n, e=e, s=s, w=w)


def facing_code(text: object) -> str | None:
    """Return the direction (N, E, S or W) that typed `text` names, else None.

    The codes N, E, S and W come first: they are what menus send and saves hold, the same in every language.
    Then the current language's letters and words (German "O" is Osten, east; Spanish and Portuguese "O" is
    Oeste, west: no language's letter is another direction's code), then the English words.
    """
    wanted = str(text).strip().casefold()
    if wanted.upper() in DIRECTIONS:
        return wanted.upper()
    for d in DIRECTIONS:
        if wanted in (compass_letter(d).casefold(), direction(d).casefold(), WORDS[d]):
            return d
    return None


_BY_NAME = {key: cid for cid, card in CARDS.items() for key in (cid, card.name.lower())}


def find_card(text: str) -> str | None:
    """Return the card id `text` names (id, or its name in English or the current language, any case), or None."""
    wanted = text.strip().lower()
    found = _BY_NAME.get(wanted)
    if found is None and current() != "en":
        found = next((cid for cid in CARDS if card_name(cid).lower() == wanted), None)
    return found
