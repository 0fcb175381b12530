"""Describe the Flippers table and hand in alt text, within Discord's limit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.flippers.table import label
from render.common import fit_alt
from render.flippers.reading import (
    _activation_line,
    _headline,
    _leader_cells,
    _marker_cells,
    _name,
    _projected,
    _seat_lines,
    _short,
)


def _cards_alt(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return every card in words for alt text: the Food cards, then each seat's Explorers under its name."""
    marked = _marker_cells(view).keys()
    parts = []
    for c in view["cards"]:
        if c["kind"] == "food":
            pays = ", ".join(f"{a['points']} to {a['cell']}" for a in c["arrows"])
            parts.append(f"{c['cell']} {c['name']} side {c['face']} ({pays})")
    for seat in view["seats"]:
        if mine := _explorers_of(view, seat["seat"], marked, compact=False):
            parts.append(f"{_name(names, seat['seat'])}: {mine}")
    return "Cards: " + "; ".join(parts) + "."


def _explorers_of(view: dict[str, Any], team: int, marked: Iterable[tuple[int, int]], *, compact: bool) -> str:
    """Return one species' table Explorers in words: power, cell, facing and whether a marker blocks it."""
    mine = []
    for c in view["cards"]:
        if c["kind"] == "food" or c["team"] != team:
            continue
        if c["face"] == "down":
            mine.append(f"face down {c['cell']}" if compact else f"face down on {c['cell']}")
            continue
        blocked = " blocked" if c.get("blocked_by") is not None or (c["col"], c["row"]) in marked else ""
        facing = c["facing"] if compact else f"facing {c['facing']}"
        mine.append(f"{c['power_name']} {c['cell']} {facing}{blocked}")
    return ", ".join(mine)


def _markers_alt(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return the Block markers in words: whose, and on which cell (saying when it waits on an empty cell)."""
    occupied = {(c["col"], c["row"]) for c in view["cards"]}
    parts = []
    for cell, teams in sorted(_marker_cells(view).items(), key=lambda item: (item[0][1], item[0][0])):
        where = label(cell) + ("" if cell in occupied else " (empty)")
        parts.extend(f"{_name(names, team)}'s on {where}" for team, _ in teams)
    return ("Block markers: " + ", ".join(parts) + ".") if parts else ""


def _compact_seats(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Return one short sentence per seat, then per Team Up side named by its species, with its points."""
    if view["final"]:
        lines = [
            line.replace(_name(names, s["seat"]), f"{_name(names, s['seat'])} ({s['short']})", 1)
            for s, line in zip(view["seats"], _seat_lines(view, names), strict=False)
        ]
    else:
        projected = _projected(view)
        lines = []
        for s in view["seats"]:
            seat = s["seat"]
            turn = "▶ " if view.get("current") == seat else ""
            out = ", resigned" if s["resigned"] else f", hand {s['hand_size']}, deck {s['deck_size']}"
            end = f", {projected[seat]} if it ended now" if projected else ""
            lines.append(f"{turn}{_name(names, seat)} ({s['short']}): {s['stash']} pts{out}{end}")
    if not view["teams_mode"]:
        return lines
    for side in sorted({s["side"] for s in view["seats"]}):
        seats = [s["seat"] for s in view["seats"] if s["side"] == side]
        members = " & ".join(_short(view, s) for s in seats)
        key = "total" if view["final"] else "stash"
        total = sum(view["scores"][s][key] for s in seats)
        projected = _projected(view)
        tail = f", {sum(projected[s] for s in seats)} if it ended now" if projected else ""
        lines.append(f"Team {members}: {total} pts{tail}")
    return lines


def _compact_markers(view: dict[str, Any]) -> str:
    """Return the Block markers by species and cell."""
    occupied = {(c["col"], c["row"]) for c in view["cards"]}
    parts = []
    for cell, teams in sorted(_marker_cells(view).items(), key=lambda item: (item[0][1], item[0][0])):
        where = label(cell) + ("" if cell in occupied else " (empty)")
        parts.extend(f"{_short(view, team)} on {where}" for team, _ in teams)
    return ("Block markers: " + ", ".join(parts) + ".") if parts else ""


def _compact_food(view: dict[str, Any], sides: bool = True) -> str:
    """Return the Food cards with what each arrow pays to which cell (and which side is up, if `sides`)."""
    parts = []
    for c in view["cards"]:
        if c["kind"] == "food":
            pays = ", ".join(f"{a['points']} to {a['cell']}" for a in c["arrows"])
            side = f" side {c['face']}" if sides else ""
            parts.append(f"{c['name']} {c['cell']}{side} pays {pays}")
    return "Food: " + "; ".join(parts) + "."


def _compact_explorers(view: dict[str, Any]) -> str:
    """Return each species' table cards as power, cell and facing letter."""
    marked = _marker_cells(view).keys()
    parts = []
    for seat in view["seats"]:
        if mine := _explorers_of(view, seat["seat"], marked, compact=True):
            parts.append(f"{seat['short']}: {mine}")
    return ("Explorers (facing N, E, S or W): " + "; ".join(parts) + ".") if parts else ""


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
        extra = "".join([f", {down} face down" if down else "", f", {blocked} blocked" if blocked else ""])
        parts.append(f"{seat['short']} {len(mine)}{extra}")
    return ("Explorers on the table: " + "; ".join(parts) + ".") if parts else ""


def _points_table(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return every seat's and Team Up side's points in one sentence, the fewest words that keep them all."""
    projected = _projected(view)
    if view["final"] or not projected:
        return " ".join(text + "." for text in _compact_seats(view, names))
    seats = [
        f"{_name(names, s['seat'])} ({s['short']}): {s['stash']}, {projected[s['seat']]}, "
        + ("resigned" if s["resigned"] else f"hand {s['hand_size']}, deck {s['deck_size']}")
        for s in view["seats"]
    ]
    for side in sorted({s["side"] for s in view["seats"]}) if view["teams_mode"] else []:
        members = [s["seat"] for s in view["seats"] if s["side"] == side]
        total, end = sum(view["scores"][m]["stash"] for m in members), sum(projected[m] for m in members)
        seats.append(f"Team {' & '.join(_short(view, m) for m in members)} {total}, {end}")
    return "Points now, then if it ended now: " + "; ".join(seats) + "."


TABLE_ELSEWHERE = "More cards than fit here: the play menus say what each open cell touches and each facing aims at."


def alt_text_table(view: dict[str, Any], names: list[str]) -> str:
    """Describe the table for screen readers within Discord's limit: in full, compactly, or as a summary."""
    head = [f"Flippers. {_headline(view, names)}."]
    activation = _activation_line(view)
    if activation:
        head.append(activation + (": " + ", ".join(_leader_cells(view)) if _leader_cells(view) else "") + ".")
    supply = f"Supply {view['supply']}."
    full = [*head, " ".join(text + "." for text in _seat_lines(view, names)), supply]
    full += [_markers_alt(view, names), _cards_alt(view, names)]
    short = [*head, " ".join(text + "." for text in _compact_seats(view, names)), supply, _compact_markers(view)]
    food = _compact_food(view) if any(c["kind"] == "food" for c in view["cards"]) else ""
    compact = [*short, food, _compact_explorers(view)]
    elsewhere = "Too many cards to list one by one." if view["final"] else TABLE_ELSEWHERE
    summary = [*short, food, _explorer_counts(view), elsewhere]
    sideless = _compact_food(view, sides=False) if food else ""
    least = [*head, _points_table(view, names), supply, _compact_markers(view), sideless, elsewhere]
    versions = (full, compact, summary, least)
    return fit_alt(*(" ".join(part for part in parts if part) for parts in versions))


def alt_text_hand(view: dict[str, Any], names: list[str]) -> str:
    """Return a short description of the hand image."""
    seat = view["you"]
    cards = ", ".join(f"{c['name']} ({c['text']})" for c in view["hand"]) or "no cards"
    text = f"{_name(names, seat)}'s hand: {cards}. Deck: {view['seats'][seat]['deck_size']} left."
    if view.get("must_discard"):
        text += f" Choose {view['must_discard']} to discard."
    return fit_alt(text)
