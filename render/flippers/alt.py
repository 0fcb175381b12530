"""Describe the Flippers table and hand in alt text, within Discord's limit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.flippers.names import compass_letter, compass_letters
from engine.flippers.table import label
from engine.words import join_list
from i18n import N_, _, ngettext
from render.common import clauses, fit_alt, full_stop
from render.flippers.reading import (
    _activation_line,
    _cards_left,
    _headline,
    _if_ended,
    _leader_cells,
    _marker_cells,
    _members,
    _name,
    _points,
    _projected,
    _seat_lines,
    _short,
    _team,
)


def _pays(card: dict[str, Any]) -> str:
    """Return what each arrow of a Food card pays to which cell ("2 to N15, 1 to O16")."""
    return join_list([_("{points} to {cell}", points=a["points"], cell=a["cell"]) for a in card["arrows"]])


def _where(cell: tuple[int, int], occupied: set[tuple[int, int]]) -> str:
    """Return a cell's label, saying when it is empty ("N15 (empty)")."""
    return label(cell) if cell in occupied else _("{cell} (empty)", cell=label(cell))


def _cards_alt(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return every card in words for alt text: the Food cards, then each seat's Explorers under its name."""
    marked = _marker_cells(view).keys()
    parts = []
    for c in view["cards"]:
        if c["kind"] == "food":
            parts.append(
                _("{cell} {name} side {side} ({pays})", cell=c["cell"], name=c["name"], side=c["face"], pays=_pays(c))
            )
    for seat in view["seats"]:
        if mine := _explorers_of(view, seat["seat"], marked, compact=False):
            parts.append(_("{name}: {cards}", name=_name(names, seat["seat"]), cards=mine))
    return _("Cards: {cards}.", cards=clauses(parts))


def _explorers_of(view: dict[str, Any], team: int, marked: Iterable[tuple[int, int]], *, compact: bool) -> str:
    """Return one species' table Explorers in words: power, cell, facing and whether a marker blocks it."""
    mine = []
    for c in view["cards"]:
        if c["kind"] == "food" or c["team"] != team:
            continue
        if c["face"] == "down":
            if compact:
                mine.append(_("face down {cell}", cell=c["cell"]))
            else:
                mine.append(_("face down on {cell}", cell=c["cell"]))
            continue
        blocked = c.get("blocked_by") is not None or (c["col"], c["row"]) in marked
        facing = compass_letter(c["facing"])
        if compact:
            text = _("{power} {cell} {facing}", power=c["power_name"], cell=c["cell"], facing=facing)
        else:
            text = _("{power} {cell} facing {facing}", power=c["power_name"], cell=c["cell"], facing=facing)
        mine.append(_("{card} blocked", card=text) if blocked else text)
    return join_list(mine)


def _markers_alt(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return the Block markers in words: whose, and on which cell (saying when it waits on an empty cell)."""
    occupied = {(c["col"], c["row"]) for c in view["cards"]}
    parts = []
    for cell, teams in sorted(_marker_cells(view).items(), key=lambda item: (item[0][1], item[0][0])):
        where = _where(cell, occupied)
        parts.extend(_("{name}'s on {cell}", name=_name(names, team), cell=where) for team, _letter in teams)
    return _("Block markers: {markers}.", markers=join_list(parts)) if parts else ""


def _compact_seats(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Return one short sentence per seat, then per Team Up side named by its species, with its points."""
    if view["final"]:
        lines = []
        for s, line in zip(view["seats"], _seat_lines(view, names), strict=False):
            name = _name(names, s["seat"])
            lines.append(line.replace(name, _("{name} ({species})", name=name, species=s["short"]), 1))
    else:
        projected = _projected(view)
        lines = []
        for s in view["seats"]:
            seat = s["seat"]
            turn = "▶ " if view.get("current") == seat else ""
            head = _(
                "{name} ({species}): {points}", name=_name(names, seat), species=s["short"], points=_points(s["stash"])
            )
            tail = [*_cards_left(s), *([_if_ended(projected[seat])] if projected else [])]
            lines.append(turn + join_list([head, *tail]))
    if not view["teams_mode"]:
        return lines
    for side in sorted({s["side"] for s in view["seats"]}):
        seats = [s["seat"] for s in view["seats"] if s["side"] == side]
        members = _members([_short(view, s) for s in seats])
        key = "total" if view["final"] else "stash"
        total = sum(view["scores"][s][key] for s in seats)
        projected = _projected(view)
        head = _("{team}: {points}", team=_team(members), points=_points(total))
        lines.append(join_list([head, _if_ended(sum(projected[s] for s in seats))]) if projected else head)
    return lines


def _compact_markers(view: dict[str, Any]) -> str:
    """Return the Block markers by species and cell."""
    occupied = {(c["col"], c["row"]) for c in view["cards"]}
    parts = []
    for cell, teams in sorted(_marker_cells(view).items(), key=lambda item: (item[0][1], item[0][0])):
        where = _where(cell, occupied)
        parts.extend(_("{species} on {cell}", species=_short(view, team), cell=where) for team, _letter in teams)
    return _("Block markers: {markers}.", markers=join_list(parts)) if parts else ""


def _compact_food(view: dict[str, Any], sides: bool = True) -> str:
    """Return the Food cards with what each arrow pays to which cell (and which side is up, if `sides`)."""
    parts = []
    for c in view["cards"]:
        if c["kind"] != "food":
            continue
        if sides:
            parts.append(
                _(
                    "{name} {cell} side {side} pays {pays}",
                    name=c["name"],
                    cell=c["cell"],
                    side=c["face"],
                    pays=_pays(c),
                )
            )
        else:
            parts.append(_("{name} {cell} pays {pays}", name=c["name"], cell=c["cell"], pays=_pays(c)))
    return _("Food: {cards}.", cards=clauses(parts))


def _compact_explorers(view: dict[str, Any]) -> str:
    """Return each species' table cards as power, cell and facing letter."""
    marked = _marker_cells(view).keys()
    parts = []
    for seat in view["seats"]:
        if mine := _explorers_of(view, seat["seat"], marked, compact=True):
            parts.append(_("{species}: {cards}", species=seat["short"], cards=mine))
    if not parts:
        return ""
    return _("Explorers (facing {directions}): {cards}.", directions=compass_letters(), cards=clauses(parts))


def _explorer_counts(view: dict[str, Any]) -> str:
    """Return how many table cards each species has, and how many lie face down or blocked."""
    marked = _marker_cells(view).keys()
    parts = []
    for seat in view["seats"]:
        mine = [c for c in view["cards"] if c["kind"] != "food" and c["team"] == seat["seat"]]
        if not mine:
            continue
        down = sum(1 for c in mine if c["face"] == "down")
        blocked = sum(
            1
            for c in mine
            if c["face"] != "down" and (c.get("blocked_by") is not None or (c["col"], c["row"]) in marked)
        )
        counts = [_("{species} {n}", species=seat["short"], n=len(mine))]
        if down:
            counts.append(ngettext("{n} face down", "{n} face down", down))
        if blocked:
            counts.append(ngettext("{n} blocked", "{n} blocked", blocked))
        parts.append(join_list(counts))
    return _("Explorers on the table: {counts}.", counts=clauses(parts)) if parts else ""


def _points_table(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return every seat's and Team Up side's points in one sentence, the fewest words that keep them all."""
    projected = _projected(view)
    if view["final"] or not projected:
        return " ".join(full_stop(text) for text in _compact_seats(view, names))
    seats = []
    for s in view["seats"]:
        head = _("{name} ({species}): {points}", name=_name(names, s["seat"]), species=s["short"], points=s["stash"])
        seats.append(join_list([head, str(projected[s["seat"]]), *_cards_left(s)]))
    for side in sorted({s["side"] for s in view["seats"]}) if view["teams_mode"] else []:
        members = [s["seat"] for s in view["seats"] if s["side"] == side]
        total, end = sum(view["scores"][m]["stash"] for m in members), sum(projected[m] for m in members)
        team = _team(_members([_short(view, m) for m in members]))
        seats.append(_("{team} {points}, {end}", team=team, points=total, end=end))
    return _("Points now, then if it ended now: {seats}.", seats=clauses(seats))


TABLE_ELSEWHERE = N_(
    "More cards than fit here: the play menus say what each open cell touches and each facing aims at."
)


def alt_text_table(view: dict[str, Any], names: list[str]) -> str:
    """Describe the table for screen readers within Discord's limit: in full, compactly, or as a summary."""
    head = [_("Flippers. {headline}.", headline=_headline(view, names))]
    activation = _activation_line(view)
    if activation:
        cells = _leader_cells(view)
        head.append(_("{line}: {cells}.", line=activation, cells=join_list(cells)) if cells else full_stop(activation))
    supply = _("Supply {n}.", n=view["supply"])
    full = [*head, " ".join(full_stop(text) for text in _seat_lines(view, names)), supply]
    full += [_markers_alt(view, names), _cards_alt(view, names)]
    seats = " ".join(full_stop(text) for text in _compact_seats(view, names))
    short = [*head, seats, supply, _compact_markers(view)]
    food = _compact_food(view) if any(c["kind"] == "food" for c in view["cards"]) else ""
    compact = [*short, food, _compact_explorers(view)]
    elsewhere = _("Too many cards to list one by one.") if view["final"] else _(TABLE_ELSEWHERE)
    summary = [*short, food, _explorer_counts(view), elsewhere]
    sideless = _compact_food(view, sides=False) if food else ""
    least = [*head, _points_table(view, names), supply, _compact_markers(view), sideless, elsewhere]
    # Longer languages with the longest names may need the points alone.
    bare = [*head, _points_table(view, names), supply, elsewhere]
    versions = (full, compact, summary, least, bare)
    return fit_alt(*(" ".join(part for part in parts if part) for parts in versions))


def alt_text_hand(view: dict[str, Any], names: list[str]) -> str:
    """Return a short description of the hand image."""
    seat = view["you"]
    cards = join_list([_("{power} ({text})", power=c["name"], text=c["text"]) for c in view["hand"]]) or _("no cards")
    left = view["seats"][seat]["deck_size"]
    text = ngettext(
        "{name}'s hand: {cards}. Deck: {n} left.",
        "{name}'s hand: {cards}. Deck: {n} left.",
        left,
        name=_name(names, seat),
        cards=cards,
    )
    if view.get("must_discard"):
        text += " " + ngettext("Choose {n} to discard.", "Choose {n} to discard.", view["must_discard"])
    return fit_alt(text)
