"""Build what the table draws of a Flippers game for one seat: the cards on the table, its hand, what it may tap."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.flippers.cards import EXPLORER, LEADER, TEAMS, explorer_id
from engine.flippers.names import card_name, direction, power_name, power_text, team_of
from engine.flippers.table import DIRECTIONS, parse_label
from i18n import _, ngettext
from render.common import seat_colour, text_on
from render.flippers.cards import FOOD_BG, FOOD_INK, ICONS
from table.views.events import hex_colour, public_events

if TYPE_CHECKING:
    from engine.flippers.game import FlippersGame
    from engine.flippers.state import FlippersState

CELL_KEYS = ("cell", "target_cell", "from", "left", "right")
"""Where a Flippers event names the cells it touched."""


def _style(team: int) -> dict[str, str]:
    """Return a team's colour, the ink that reads on it and its letter, as the channel board draws them."""
    colour = seat_colour(team)
    return {"colour": hex_colour(colour), "ink": hex_colour(text_on(colour)), "letter": TEAMS[team]["letter"]}


def _spot(label: str) -> dict[str, Any]:
    """Return a cell by its label with its column and row."""
    col, row = parse_label(label) or (0, 0)
    return {"cell": label, "col": col, "row": row}


def _card(entry: dict[str, Any], due: set[str], done: set[str]) -> dict[str, Any]:
    """Return a table card with the colours, letter and icon it is drawn with, and whether it is still to act."""
    out = {**entry, "due": entry["id"] in due, "done": entry["id"] in done}
    if entry["kind"] == EXPLORER:
        out.update(_style(entry["team"]), icon=ICONS.get(entry["power"], "?"))
    else:
        out.update(colour=hex_colour(FOOD_BG), ink=hex_colour(FOOD_INK))
    return out


def _hand(view: dict[str, Any], actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the seat's hand: each card's power, icon and the cells it may be played on now."""
    seat = view["you"]
    out = []
    for card in view["hand"]:
        cells = sorted({a["cell"] for a in actions if a["type"] == "play" and a["card"] == card["id"]})
        name = card_name(card["id"])
        out.append(
            {
                **card,
                **_style(seat),
                "name": name,
                "icon": ICONS.get(card["power"], "?"),
                "cells": cells,
                "cell_prompt": _("Tap a lit cell to play {card} there.", card=name),
                "arrow_prompt": _("Tap an arrow: the way {card} will face.", card=name),
            }
        )
    return out


def _leader(seat: int, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Return the Leader the seat places now, with the cells and facings it may take, or None."""
    spots: dict[str, list[str]] = {}
    for action in actions:
        if action["type"] == "leader":
            spots.setdefault(action["cell"], []).append(action["facing"])
    if not spots:
        return None
    cid = explorer_id(seat, LEADER)
    return {
        "id": cid,
        "name": card_name(cid),
        "power": LEADER,
        "power_name": power_name(LEADER),
        "text": power_text(LEADER),
        "icon": ICONS[LEADER],
        **_style(seat),
        "spots": spots,
        "cell_prompt": _("Tap a lit cell beside a Food card to place your Leader."),
        "arrow_prompt": _("Tap the arrow: your Leader faces the Food card."),
    }


def _seats(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Return every seat: player name, team, colours, points, cards left and whether the table waits for it."""
    out = []
    for row in view["seats"]:
        s = row["seat"]
        out.append(
            {
                **row,
                **_style(s),
                "name": names[s] if s < len(names) else _("Seat {number}", number=s + 1),
                "points": view["scores"][s]["total"],
                "score": ngettext("{n} point", "{n} points", view["scores"][s]["total"]),
                # TRANSLATORS: beside a player's points on the table: their team and the cards they have left.
                "detail": ngettext(
                    "{team} · {n} card left",
                    "{team} · {n} cards left",
                    row["hand_size"] + row["deck_size"],
                    team=row["short"],
                ),
                "acting": s in view["to_act"],
                "winner": s in view["winners"],
                "out": row["resigned"],
            }
        )
    return out


def _sides(state: FlippersState, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the Team Up sides with their seats and points (empty when every seat plays alone)."""
    if not state.teams_mode:
        return []
    sides: dict[int, list[int]] = {}
    for s in range(state.players):
        sides.setdefault(state.side(s), []).append(s)
    return [
        {"side": side, "name": team_of(seats), "seats": seats, "points": sum(view["scores"][s]["total"] for s in seats)}
        for side, seats in sorted(sides.items())
    ]


def _prompt(view: dict[str, Any], actions: list[dict[str, Any]]) -> str:
    """Return the line telling this seat what to tap now ("" when the table waits for someone else)."""
    if not actions:
        return ""
    if view["phase"] == "leaders":
        return _("Your turn: place your Leader beside a Food card, facing it.")
    if view["phase"] == "setup":
        n = view["must_discard"]
        return ngettext(
            "Choose {n} card to discard, then tap Discard.", "Choose {n} cards to discard, then tap Discard.", n
        )
    if view["played"] is None:
        return _("Your turn: tap a card in your hand, then a lit cell, then the arrow it will face.")
    return _("Tap the lit card to activate next.")


def _last(game: FlippersGame, last: Any, seat: int | None, names: Sequence[str]) -> dict[str, Any] | None:
    """Return the last move to highlight: who made it, its lines, and every cell it touched."""
    events = public_events(last, seat)
    if not events:
        return None
    cells: list[str] = []
    for event in events:
        for key in CELL_KEYS:
            value = event.data.get(key)
            if isinstance(value, str) and parse_label(value) is not None and value not in cells:
                cells.append(value)
    lines = [line for line in (game.describe(e, names) for e in events) if line]
    mover = next((e.seat for e in events if e.seat is not None), None)
    return {"seat": mover, "lines": lines, "cells": cells}


def table_view(
    game: FlippersGame, state: FlippersState, seat: int | None, names: Sequence[str], last: Any
) -> dict[str, Any]:
    """Return everything the table draws for `seat` (None: a spectator), with that seat's legal actions."""
    view = game.view(state, seat)
    actions = game.legal_actions(state, seat) if seat is not None else []
    due = set(view["to_activate"])
    done = set(view["activated"])
    playing = view["phase"] == "play" and view["played"] is None
    out: dict[str, Any] = {
        "kind": "flippers",
        "seat": seat,
        "phase": view["phase"],
        "players": view["players"],
        "teams_mode": view["teams_mode"],
        "turn": view["turn"],
        "to_act": view["to_act"],
        "status": game.status(state, names),
        "prompt": _prompt(view, actions),
        "supply": ngettext("Supply: {n} point", "Supply: {n} points", view["supply"]),
        "cards": [_card(c, due, done) for c in view["cards"]],
        "markers": [{**m, **_style(m["team"])} for m in view["markers"]],
        "open": [_spot(c) for c in view["open_cells"]] if playing else [],
        "leader_cells": [_spot(c) for c in view["leader_cells"]],
        "box": view["seen"],
        "seats": _seats(view, names),
        "sides": _sides(state, view),
        "last": _last(game, last, seat, names),
        "tiebreak": view["tiebreak"],
        "actions": actions,
        "hand": None,
        "leader": None,
        "discard": None,
        "activate": [],
        "text": _words(),
    }
    if seat is None:
        return out
    out["hand"] = _hand(view, actions)
    out["leader"] = _leader(seat, actions)
    if any(a["type"] == "discard" for a in actions):
        n = view["must_discard"]
        out["discard"] = {"count": n, "button": ngettext("Discard {n} card", "Discard {n} cards", n)}
    out["activate"] = [{"id": a["card"], "name": card_name(a["card"])} for a in actions if a["type"] == "activate"]
    return out


def _words() -> dict[str, Any]:
    """Return the fixed words the table's script shows, in the current language."""
    return {
        "cancel": _("Cancel"),
        "zoom_in": _("Zoom in"),
        "zoom_out": _("Zoom out"),
        "fit": _("Show the whole table"),
        "directions": {d: direction(d) for d in DIRECTIONS},
    }
