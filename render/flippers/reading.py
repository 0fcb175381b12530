"""Read a Flippers view for pictures and alt text: names, markers, Leader cells, headline and points lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.flippers.table import parse_label


def _name(names: Sequence[str], seat: int) -> str:
    """Return a seat's player name."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


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


def _headline(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return the line above the table saying whose turn it is."""
    if view["final"] and view["teams_mode"] and view["winners"]:
        sides = sorted({view["seats"][s]["side"] for s in view["winners"]})
        teams = [" & ".join(x["short"] for x in view["seats"] if x["side"] == side) for side in sides]
        won = " and ".join(f"Team {t}" for t in teams)
        return f"Game over: {won} {'wins' if len(teams) == 1 else 'share the win'}"
    if view["final"]:
        winners = [_name(names, s) for s in view["winners"]]
        if not winners:
            return "Game over"
        listed = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
        return f"Game over: {listed} {'wins' if len(winners) == 1 else 'win'}"
    if _leader_cells(view) and view.get("current") is not None:
        return f"{_name(names, view['current'])} places their Leader"
    if view["phase"] == "setup":
        return "Setup: " + ", ".join(_name(names, s) for s in view["to_act"]) + " choosing discards"
    if view.get("current") is None:
        return "Setting up the table"
    who = _name(names, view["current"])
    if view["played"] is None:
        return f"Turn {view['turn']}: {who} to play"
    return f"Turn {view['turn']}: {who} activates"


def _activation_line(view: dict[str, Any]) -> str:
    """Return the line listing the cards still to activate, or where a Leader may go."""
    if _leader_cells(view) and not view["final"]:
        return "Leader goes on a highlighted cell, facing the Food card beside it"
    by_id = {c["id"]: c for c in view["cards"]}
    due = [f"{by_id[c]['power_name']} {by_id[c]['cell']}" for c in view.get("to_activate", []) if c in by_id]
    return ("To activate: " + ", ".join(due)) if due else ""


def _seat_lines(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Return one line per seat, then per Team Up side, saying its points (for alt text)."""
    seats = view["seats"]
    projected = _projected(view)
    lines: list[str] = []
    for s in seats:
        seat = s["seat"]
        if view["final"]:
            sc = view["scores"][seat]
            star = " ★ winner" if seat in view["winners"] else ""
            out = " (resigned)" if s["resigned"] else ""
            lines.append(
                f"{_name(names, seat)}{out}: {sc['stash']} stash + {sc['food']} food"
                f" + {sc['leader']} leader = {sc['total']}{star}"
            )
            continue
        turn = "▶ " if view.get("current") == seat else ""
        out = " · resigned" if s["resigned"] else f" · hand {s['hand_size']} · deck {s['deck_size']}"
        end = f" · {projected[seat]} if it ended now" if projected else ""
        lines.append(f"{turn}{_name(names, seat)} ({s['short']}): {s['stash']} pts{out}{end}")
    for _side, members, total, end in _sides(view, names):
        if view["final"]:
            lines.append(f"Team {members}: {total} points together")
        else:
            tail = f", {end} if it ended now" if end is not None else ""
            lines.append(f"Team {members}: {total} pts in stash{tail}")
    return lines


def _sides(view: dict[str, Any], names: Sequence[str]) -> list[tuple[int, str, int, int | None]]:
    """Return (side, members, points, projected points) per Team Up partnership; empty otherwise."""
    if not view["teams_mode"]:
        return []
    projected = _projected(view)
    out = []
    for side in sorted({s["side"] for s in view["seats"]}):
        seats = [s["seat"] for s in view["seats"] if s["side"] == side]
        members = " & ".join(_short(view, s) for s in seats)
        key = "total" if view["final"] else "stash"
        total = sum(view["scores"][s][key] for s in seats)
        end = sum(projected[s] for s in seats) if projected else None
        out.append((side, members, total, end))
    return out


def _columns(view: dict[str, Any]) -> list[str]:
    """Return the headings of the panel's number columns."""
    if view["final"]:
        return ["stash", "food", "leader", "total"]
    return ["pts", "if ended now", "hand", "deck"] if _projected(view) else ["pts", "hand", "deck"]


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
    return next((s["short"] for s in view["seats"] if s["seat"] == seat), f"Seat {seat + 1}")
