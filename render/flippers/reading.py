"""Read a Flippers view for pictures and alt text: names, markers, Leader cells, headline and points lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.flippers.table import parse_label
from engine.words import join_last, join_list, join_names
from i18n import _, ngettext, pgettext


def _name(names: Sequence[str], seat: int) -> str:
    """Return a seat's player name."""
    return names[seat] if 0 <= seat < len(names) else _("Seat {number}", number=seat + 1)


def _grid(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """Return the first and last column and row to draw: the cards plus one ring, and any marker or Leader cell."""
    b = view.get("seen") or view["bounds"]  # every cell the table has used: the picture never narrows
    b = {k: min(b[k], view["bounds"][k]) if k.startswith("min") else max(b[k], view["bounds"][k]) for k in b}
    cols, rows = [b["min_col"] - 1, b["max_col"] + 1], [b["min_row"] - 1, b["max_row"] + 1]
    for col, row in _marker_cells(view).keys() | {c for c in (parse_label(t) for t in _leader_cells(view)) if c}:
        cols.append(col)
        rows.append(row)
    return min(cols), max(cols), min(rows), max(rows)


def _letters(view: dict[str, Any]) -> list[str]:
    """Return each team's letter."""
    return [s["letter"] for s in view["seats"]]


def _marker_cells(view: dict[str, Any]) -> dict[tuple[int, int], list[tuple[int, str]]]:
    """Return (team, letter) of every Block marker on each cell, empty cells included.

    Reads the view's top-level "markers" list; a view without one falls back to the markers listed on cards.
    """
    letters = _letters(view)
    out: dict[tuple[int, int], list[tuple[int, str]]] = {}
    if "markers" in view:
        for m in view["markers"]:
            cell = (m["col"], m["row"]) if "col" in m else parse_label(m["cell"])
            if cell is not None:
                out.setdefault(cell, []).append((m["team"], m.get("letter") or letters[m["team"]]))
        return out
    for card in view["cards"]:
        for team in card.get("markers", []):
            out.setdefault((card["col"], card["row"]), []).append((team, letters[team]))
    return out


def _leader_cells(view: dict[str, Any]) -> list[str]:
    """Return the cells the seat to act may put its Leader on (empty outside Leader placement)."""
    return list(view.get("leader_cells") or [])


def _projected(view: dict[str, Any]) -> list[int] | None:
    """Return each seat's points if the game ended now, when the view gives them during play."""
    projected = view.get("projected")
    placing = view["phase"] == "setup" or _leader_cells(view)
    return None if view["final"] or placing or not projected else list(projected)


def _team(members: str) -> str:
    """Return a Team Up side's name from its members' species ("Team Chinstrap & Emperor")."""
    return _("Team {members}", members=members)


def _members(species: Sequence[str]) -> str:
    """Return the species of a Team Up side joined into one name ("Chinstrap & Emperor")."""
    # TRANSLATORS: what joins the two species of a Team Up side ("Chinstrap & Emperor").
    return join_last(species, pgettext("team members", " & "))


def _headline(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return the line above the table saying whose turn it is."""
    if view["final"] and view["teams_mode"] and view["winners"]:
        sides = sorted({view["seats"][s]["side"] for s in view["winners"]})
        teams = [_team(_members([x["short"] for x in view["seats"] if x["side"] == side])) for side in sides]
        return ngettext(
            "Game over: {teams} wins", "Game over: {teams} share the win", len(teams), teams=join_names(teams)
        )
    if view["final"]:
        winners = [_name(names, s) for s in view["winners"]]
        if not winners:
            return _("Game over")
        return ngettext("Game over: {names} wins", "Game over: {names} win", len(winners), names=join_names(winners))
    if _leader_cells(view) and view.get("current") is not None:
        return _("{name} places their Leader", name=_name(names, view["current"]))
    if view["phase"] == "setup":
        choosing = [_name(names, s) for s in view["to_act"]]
        return ngettext(
            "Setup: {names} choosing discards",
            "Setup: {names} choosing discards",
            len(choosing),
            names=join_names(choosing),
        )
    if view.get("current") is None:
        return _("Setting up the table")
    who = _name(names, view["current"])
    if view["played"] is None:
        return _("Turn {turn}: {name} to play", turn=view["turn"], name=who)
    return _("Turn {turn}: {name} activates", turn=view["turn"], name=who)


def _activation_line(view: dict[str, Any]) -> str:
    """Return the line listing the cards still to activate, or where a Leader may go."""
    if _leader_cells(view) and not view["final"]:
        return _("Leader goes on a highlighted cell, facing the Food card beside it")
    by_id = {c["id"]: c for c in view["cards"]}
    due = [f"{by_id[c]['power_name']} {by_id[c]['cell']}" for c in view.get("to_activate", []) if c in by_id]
    return _("To activate: {cards}", cards=join_list(due)) if due else ""


def _points(n: int) -> str:
    """Return "1 pt", "12 pts" in the current language."""
    return ngettext("{n} pt", "{n} pts", n)


def _cards_left(seat: dict[str, Any]) -> list[str]:
    """Return a playing seat's hand and deck sizes ("hand 3", "deck 9"), or that it resigned."""
    if seat["resigned"]:
        return [pgettext("seat", "resigned")]
    return [_("hand {n}", n=seat["hand_size"]), _("deck {n}", n=seat["deck_size"])]


def _if_ended(points: int) -> str:
    """Return "12 if it ended now": a seat's points were the game to end this turn."""
    return _("{points} if it ended now", points=points)


def _seat_lines(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Return one line per seat, then per Team Up side, saying its points (for alt text)."""
    seats = view["seats"]
    projected = _projected(view)
    lines: list[str] = []
    for s in seats:
        seat = s["seat"]
        name = _name(names, seat)
        if view["final"]:
            sc = view["scores"][seat]
            if s["resigned"]:
                name = _("{name} (resigned)", name=name)
            line = _(
                "{name}: {stash} stash + {food} food + {leader} leader = {total}",
                name=name,
                stash=sc["stash"],
                food=sc["food"],
                leader=sc["leader"],
                total=sc["total"],
            )
            if seat in view["winners"]:
                line = _("{line} ★ {winner}", line=line, winner=pgettext("seat", "winner"))
            lines.append(line)
            continue
        turn = "▶ " if view.get("current") == seat else ""
        head = _("{name} ({species}): {points}", name=name, species=s["short"], points=_points(s["stash"]))
        tail = [*_cards_left(s), *([_if_ended(projected[seat])] if projected else [])]
        lines.append(turn + " · ".join([head, *tail]))
    for _side, members, total, end in _sides(view, names):
        if view["final"]:
            lines.append(_("{team}: {points} points together", team=_team(members), points=total))
        elif end is not None:
            lines.append(
                _(
                    "{team}: {points} in stash, {end} if it ended now",
                    team=_team(members),
                    points=_points(total),
                    end=end,
                )
            )
        else:
            lines.append(_("{team}: {points} in stash", team=_team(members), points=_points(total)))
    return lines


def _sides(view: dict[str, Any], names: Sequence[str]) -> list[tuple[int, str, int, int | None]]:
    """Return (side, members, points, projected points) per Team Up partnership; empty otherwise."""
    if not view["teams_mode"]:
        return []
    projected = _projected(view)
    out = []
    for side in sorted({s["side"] for s in view["seats"]}):
        seats = [s["seat"] for s in view["seats"] if s["side"] == side]
        members = _members([_short(view, s) for s in seats])
        key = "total" if view["final"] else "stash"
        total = sum(view["scores"][s][key] for s in seats)
        end = sum(projected[s] for s in seats) if projected else None
        out.append((side, members, total, end))
    return out


def _columns(view: dict[str, Any]) -> list[str]:
    """Return the headings of the panel's number columns."""
    # TRANSLATORS: headings of the score table's number columns under the Flippers table: keep them short.
    if view["final"]:
        return [
            pgettext("column", "stash"),
            pgettext("column", "food"),
            pgettext("column", "leader"),
            pgettext("column", "total"),
        ]
    cards = [pgettext("column", "hand"), pgettext("column", "deck")]
    if _projected(view):
        return [pgettext("column", "pts"), pgettext("column", "if ended now"), *cards]
    return [pgettext("column", "pts"), *cards]


def _row_numbers(view: dict[str, Any], seat: dict[str, Any]) -> list[str]:
    """Return one seat's numbers for the panel's columns."""
    sc = view["scores"][seat["seat"]]
    if view["final"]:
        return [str(sc["stash"]), str(sc["food"]), str(sc["leader"]), str(sc["total"])]
    projected = _projected(view)
    cards = ["–", "–"] if seat["resigned"] else [str(seat["hand_size"]), str(seat["deck_size"])]
    return [str(seat["stash"]), *([str(projected[seat["seat"]])] if projected else []), *cards]


def _short(view: dict[str, Any], seat: int) -> str:
    """Return a seat's penguin species ("Chinstrap"), as its seat line names it."""
    return next((s["short"] for s in view["seats"] if s["seat"] == seat), _("Seat {number}", number=seat + 1))
