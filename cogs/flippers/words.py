"""Name Flippers cards, cells and results in the words players read in menus and standings."""

from __future__ import annotations

from collections.abc import Sequence

from engine.base import Outcome, Standing
from engine.flippers.cards import CARDS, FOOD
from engine.flippers.names import card_name, compass_letter, direction, power_name, team_of, team_short
from engine.flippers.state import DOWN, FlippersState
from engine.flippers.table import Cell, aims, label, neighbours
from engine.words import join_names
from i18n import N_, _, ngettext, pgettext
from ui.text import LABEL, fit_first


def _listed(words: Sequence[str]) -> str:
    """Return "A", "A and B" or "A, B and C" in the current language."""
    return join_names(list(words))


def sentences(first: str, second: str) -> str:
    """Return two sentences one after the other, as the current language writes them (Japanese without a space)."""
    # TRANSLATORS: two whole sentences in a row; Japanese writes them without a space between.
    return pgettext("two sentences", "{first} {second}", first=first, second=second)


def _who(names: Sequence[str], seat: int | None) -> str:
    """Return a seat's player name."""
    if seat is None:
        return _("someone")
    return names[seat] if 0 <= seat < len(names) else _("Seat {number}", number=seat + 1)


def facing_word(compass: str) -> str:
    """Return the compass word of an arrow's direction ("N" -> "north") in the current language."""
    return direction(compass)


def facing_title(direction: str) -> str:
    """Return a direction as a menu heads it, with the letter a player may type for it: "North (N)", "Osten (O)"."""
    word = facing_word(direction)
    return f"{word[:1].upper()}{word[1:]} ({compass_letter(direction)})"


def _power(cid: str) -> str:
    """Return the power name of an Explorer card ("Flip"), or a Food card's name."""
    card = CARDS[cid]
    return power_name(card.power) if card.power else card_name(cid)


FULL, UNOWNED, CELLS = range(3)
"""How much a menu line says about the cards it names, most first: owners and cards, cards only, cells only."""


def _card_words(state: FlippersState, cid: str, names: Sequence[str], detail: int = FULL) -> str:
    """Return how a table card is called in menus: "Krill", "Bob's Flip" or "Bob's face-down card" ("Flip")."""
    card = CARDS[cid]
    if card.kind == FOOD:
        return card_name(cid)
    if detail >= UNOWNED:
        # TRANSLATORS: a table card whose owner a menu line has no room to name.
        return power_name(card.power) if state.face[cid] != DOWN else _("face-down card")
    if state.face[cid] == DOWN:
        return _("{player}'s face-down card", player=_who(names, card.team))
    # TRANSLATORS: a player's card on the table by its power, e.g. "Bob's Flip".
    return _("{player}'s {power}", player=_who(names, card.team), power=power_name(card.power))


def _cell_words(state: FlippersState, cell: Cell, names: Sequence[str], detail: int = FULL) -> str:
    """Return a cell with what it holds: "N13 (Krill)" or "N13 (empty)"; only "N13" at the `CELLS` detail."""
    cid = state.cells.get(cell)
    if cid is None:
        return _("{cell} (empty)", cell=label(cell))
    if detail >= CELLS:
        return label(cell)
    return f"{label(cell)} ({_card_words(state, cid, names, detail)})"


def aim_words(state: FlippersState, cid: str, cell: Cell, facing: str, names: Sequence[str], room: int = LABEL) -> str:
    """Say what a card on `cell` facing `facing` would target, e.g. "aims at N13 (Krill)", in at most `room` characters.

    What does not fit goes by priority, never by cutting the end: the cards' owners first, then the cards.
    """

    def worded(detail: int) -> str:
        targets = [_cell_words(state, spot, names, detail) for spot in aims(CARDS[cid].power, cell, facing)]
        # TRANSLATORS: what a card would target, in a menu, e.g. "aims at N13 (Krill) and N12 (empty)".
        return _("aims at {targets}", targets=_listed(targets))

    return fit_first((worded(detail) for detail in (FULL, UNOWNED, CELLS)), room)


def _touching(state: FlippersState, spot: Cell, names: Sequence[str], detail: int) -> str:
    """Return a card next to an open cell with its cell: "Krill (N15)"; only "N15" at the `CELLS` detail."""
    if detail >= CELLS:
        return label(spot)
    return f"{_card_words(state, state.cells[spot], names, detail)} ({label(spot)})"


def beside_words(state: FlippersState, cell: Cell, names: Sequence[str], room: int = LABEL) -> str:
    """Say which table cards an open cell touches, e.g. "beside Krill (N15)", in at most `room` characters.

    What does not fit goes by priority, never by cutting the end: the cards' owners first, then the cards.
    """

    def worded(detail: int) -> str:
        touching = [_touching(state, spot, names, detail) for spot in neighbours(cell) if spot in state.cells]
        # TRANSLATORS: which cards an open cell touches, in a menu, e.g. "beside Krill (N15)".
        return _("beside {cards}", cards=_listed(touching))

    return fit_first((worded(detail) for detail in (FULL, UNOWNED, CELLS)), room)


NO_DISCARD = N_("Name the card(s) to discard, separated by commas, e.g. `Flip, Bump` (the menu lists your hand).")


def discard_note(cards: Sequence[str]) -> str:
    """Return the private confirmation of a setup discard."""
    words = [_power(c) if c in CARDS else c for c in cards]
    return _(
        "You discarded {cards}. Nobody else learns which; the board is updated in the channel.", cards=_listed(words)
    )


def standings_lines(outcome: Outcome, names: Sequence[str]) -> list[str]:
    """Return each seat's stash, Food card and Leader points and total; in Team Up, each team first."""
    sides: dict[int, list[Standing]] = {}
    for s in outcome.standings:
        sides.setdefault(s.detail.get("side", s.seat), []).append(s)
    if all(len(members) == 1 for members in sides.values()):
        return [
            # TRANSLATORS: a final standings line, e.g. "1. 🏆 Ana (Chinstrap): 9 points = stash 6 + …".
            ngettext(
                "{rank}. {trophy}{player}: {n} point = {breakdown}",
                "{rank}. {trophy}{player}: {n} points = {breakdown}",
                s.score,
                rank=s.rank,
                trophy="🏆 " if s.winner else "",
                player=_seat_name(s, names),
                breakdown=_breakdown(s),
            )
            for s in outcome.standings
        ]
    lines = []
    for members in sides.values():
        # TRANSLATORS: a Team Up side's standings line, e.g. "1. 🏆 Team Chinstrap & Emperor: 14 points together".
        lines.append(
            ngettext(
                "{rank}. {trophy}{team}: {n} point together",
                "{rank}. {trophy}{team}: {n} points together",
                members[0].score,
                rank=min(s.rank for s in members),
                trophy="🏆 " if any(s.winner for s in members) else "",
                team=team_of(sorted(s.seat for s in members)),
            )
        )
        lines += [f"  · {_seat_name(s, names)}: {s.detail.get('total', 0)} = {_breakdown(s)}" for s in members]
    return lines


def _seat_name(s: Standing, names: Sequence[str]) -> str:
    """Return "Ana (Chinstrap)", marked when the seat resigned."""
    if s.detail.get("resigned"):
        # TRANSLATORS: a player and their team in the standings, after they resigned: "Ana (Chinstrap, resigned)".
        return _("{player} ({team}, resigned)", player=_who(names, s.seat), team=team_short(s.seat))
    # TRANSLATORS: a player and their team in the standings: "Ana (Chinstrap)".
    return _("{player} ({team})", player=_who(names, s.seat), team=team_short(s.seat))


def _breakdown(s: Standing) -> str:
    """Return a seat's points itemised: stash, Food cards and Leader."""
    d = s.detail
    # TRANSLATORS: a seat's points itemised in the standings: its stash, its Food cards and its Leader.
    return _(
        "stash {stash} + Food cards {food} + Leader {leader}",
        stash=d.get("stash", 0),
        food=d.get("food", 0),
        leader=d.get("leader", 0),
    )
