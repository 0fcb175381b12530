"""Build what the table draws of a 10 Gallon Tank game for one seat: the school, the takes, its own aquarium."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.tank.cards import card_json
from engine.tank.grid import cells, label, parse_line, split
from engine.tank.names import card_name
from engine.tank.views import seen
from i18n import _, ngettext
from render.common import text_on
from render.tank.aquarium import aquarium_rows, aquarium_total
from render.tank.style import KINDS, code, phase_name, seat_name, short_name
from table.views.events import hex_colour, public_events, seat_style

if TYPE_CHECKING:
    from engine.tank.game import TankGame
    from engine.tank.state import TankState


def _face(card: dict[str, Any]) -> dict[str, Any]:
    """Return a card face with the code, short name and colours the channel pictures draw it in."""
    colour = KINDS[card["kind"]][1] if card["kind"] in KINDS else (196, 202, 212)
    return {
        **card,
        "code": code(card["kind"]),
        "short": short_name(card["kind"]),
        "colour": hex_colour(colour),
        "ink": hex_colour(text_on(colour)),
    }


def _rect(group: dict[str, Any]) -> tuple[int, int, int, int]:
    """Return a view group's rectangle as the engine keeps it."""
    return group["rows"][0], group["cols"][0], group["rows"][1], group["cols"][1]


def _fish(grid: list[list[Any]], rect: tuple[int, int, int, int]) -> int:
    """Return how many cards a rectangle of the school holds."""
    return sum(1 for r, c in cells(rect) if grid[r][c] is not None)


def _groups(view: dict[str, Any], grid: list[list[Any]], actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the groups with their cuts (the sizes each makes, whether it is this seat's to make) and take labels."""
    legal = {(a["group"], a["line"]) for a in actions if a["type"] == "split"}
    out = []
    for group in view["groups"]:
        rect = _rect(group)
        name = group["letter"]
        n = _fish(grid, rect)
        entry = {**group, "fish": n, "take": None, "cuts": []}
        for line in group["cuts"]:
            axis, k = parse_line(line, view["grid_size"]) or ("h", 0)
            first, second = (_fish(grid, part) for part in split(rect, axis, k))
            entry["cuts"].append(
                {
                    "line": line,
                    "axis": axis,
                    "at": k,
                    "legal": (name, line) in legal,
                    # TRANSLATORS: the button that confirms a cut on the table, e.g. "Split group 1: 3 + 6 cards".
                    "label": _(
                        "Split group {group}: {first} + {second} cards", group=label(name), first=first, second=second
                    ),
                }
            )
        if view["phase"] == "take":
            entry["take"] = ngettext(
                "Take group {group} ({n} card)", "Take group {group} ({n} cards)", n, group=label(name)
            )
        out.append(entry)
    return out


def _last(game: TankGame, last: Any, seat: int | None, names: Sequence[str]) -> dict[str, Any] | None:
    """Return the last move to highlight: who made it, its lines, and the line cut or group taken."""
    events = public_events(last, seat)
    if not events:
        return None
    lines = [line for line in (game.describe(e, names) for e in events) if line]
    mover = next((e.seat for e in events if e.seat is not None), None)
    out: dict[str, Any] = {"seat": mover, "lines": lines, "line": None, "groups": [], "took": None}
    for event in events:
        if event.kind == "split":
            out["line"] = event.data.get("line")
            out["groups"] = [event.data.get("group"), event.data.get("new")]
        elif event.kind == "take":
            out["took"] = event.data.get("group")
    return out


def _seats(state: TankState, view: dict[str, Any], names: Sequence[str], acting: list[int]) -> list[dict[str, Any]]:
    """Return every seat: name, colour, card counts and the cards it was seen taking (takes are made openly)."""
    taken = seen(state)["taken"]
    final = {row["seat"]: row for row in (view["final"] or {}).get("standings", [])}
    out = []
    for row in view["seats"]:
        s = row["seat"]
        out.append(
            {
                **row,
                **seat_style(s),
                "name": seat_name(names, s),
                "acting": s in acting,
                "taken": [_card(c) for c in taken[s]],
                "score": ngettext("{n} point", "{n} points", final[s]["total"])
                if s in final
                else ngettext("{n} card", "{n} cards", row["cards"]),
                "detail": _("{n} discarded", n=row["discarded"]) if row["discarded"] else "",
                "rank": final[s]["rank"] if s in final else None,
                "winner": bool(final[s]["winner"]) if s in final else False,
                "out": row["resigned"],
                "final_cards": [_face(c) for c in view["final"]["aquariums"][s]] if view["final"] else None,
            }
        )
    return out


def _card(card_id: str) -> dict[str, Any]:
    """Return a card's public face by id, named in the current language and coloured."""
    return _face({**card_json(card_id), "name": card_name(card_id)})


def _prompt(view: dict[str, Any], actions: list[dict[str, Any]]) -> str:
    """Return the line telling this seat what to tap now ("" when the table waits for someone else)."""
    if not actions:
        return ""
    if view["phase"] == "split":
        return _("Your turn: tap a line between the fish to split a group.")
    if view["phase"] == "take":
        return _("Your turn: tap a group to take it into your aquarium.")
    return ngettext(
        "Gourami: tap up to {n} fish in your aquarium to discard it, or keep them all.",
        "Gourami: tap up to {n} fish in your aquarium to discard them, or keep them all.",
        view["pending_discards"],
    )


def _mine(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the seat's own aquarium: cards by kind with points, the total, its discards and discard options."""
    options = {a["card"] for a in actions if a["type"] == "discard"}
    total, note = aquarium_total(view)
    rows = {row["key"]: row for row in aquarium_rows(view)}
    return {
        "kinds": [
            {
                "key": kind["key"],
                "name": rows[kind["key"]]["name"],
                "points": rows[kind["key"]]["points"],
                "cards": [{**_face(card), "discard": card["id"] in options} for card in kind["cards"]],
            }
            for kind in view["by_kind"]
        ],
        "total": total,
        "note": note,
        "discards": [_face(card) for card in view["my_discards"]],
        "discarding": bool(options) or any(a["type"] == "keep" for a in actions),
    }


def table_view(game: TankGame, state: TankState, seat: int | None, names: Sequence[str], last: Any) -> dict[str, Any]:
    """Return everything the table draws for `seat` (None: a spectator), with that seat's legal actions."""
    view = game.view(state, seat)
    actions = game.legal_actions(state, seat) if seat is not None else []
    grid = [[None if card is None else _face(card) for card in row] for row in view["grid"]]
    acting = list(view["to_act"])
    out: dict[str, Any] = {
        "kind": "tank",
        "seat": seat,
        "round": view["round"],
        "rounds": view["rounds"],
        "phase": view["phase"],
        "over": view["over"],
        "heading": _(
            "Round {round} of {rounds} · {phase}",
            round=view["round"],
            rounds=view["rounds"],
            phase=phase_name(view["phase"]),
        ),
        "goal": view["goal"],
        "goal_line": _(
            "Goal: {name} (+{points}) · {text}",
            name=view["goal"]["name"],
            points=view["goal"]["points"],
            text=view["goal"]["text"],
        ),
        "grid_size": view["grid_size"],
        "grid": grid,
        "groups": _groups(view, view["grid"], actions),
        "to_act": acting,
        "split_order": view["split_order"],
        "take_order": view["take_order"],
        "seats": _seats(state, view, names, acting),
        "status": game.status(state, names),
        "prompt": _prompt(view, actions),
        "last": _last(game, last, seat, names),
        "scoring": view["scoring"],
        "tiebreak": (view["final"] or {}).get("tiebreak", ""),
        "actions": actions,
        "text": _words(),
        "mine": None,
    }
    if seat is not None:
        out["mine"] = _mine(view, actions)
    return out


def _words() -> dict[str, str]:
    """Return the fixed words the table's script shows, in the current language."""
    return {
        "aquarium": _("Your aquarium"),
        "players": _("Fish each player took"),
        "aquariums": _("Every aquarium at the end"),
        "split": _("Split here"),
        "take": _("Take this group"),
        "discard": _("Discard this fish"),
        "keep": _("Keep my fish"),
        "discards": _("Your discards"),
        "cancel": _("Cancel"),
        "nothing": _("Nothing taken yet"),
        "scoring": _("How fish score"),
    }
