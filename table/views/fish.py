"""Hey, That's My Fish! on the table: the tiles, penguins, scores and, for the seat to move, its legal actions."""

from __future__ import annotations

from typing import Any

from i18n import _, ngettext
from table.views.events import public_events


def table_view(game: Any, state: Any, seat: int | None, names: list[str], last: Any) -> dict[str, Any]:
    """Return everything the browser draws for `seat` (None: a spectator); nothing in this game is hidden."""
    view = game.view(state, seat)
    to_act = list(view["to_act"])
    seats = []
    for number, counts in enumerate(view["seats"]):
        seats.append(
            {
                "seat": number,
                "name": names[number],
                "fish": counts["fish"],
                "tiles": counts["tiles"],
                "penguins": counts["penguins"],
                "to_place": counts["to_place"],
                "out": counts["out"] or counts["resigned"],
                "score": ngettext("{n} fish", "{n} fish", counts["fish"]),
                "detail": ngettext("{n} tile", "{n} tiles", counts["tiles"]),
                "winner": number in view["winners"],
            }
        )
    mine = seat is not None and seat in to_act
    return {
        "phase": view["phase"],
        "turn": view["turn"],
        "moves": view["move"],
        "tiles": view["tiles"],
        "penguins": view["penguins"],
        "seats": seats,
        "to_act": to_act,
        "status": game.status(state, names),
        "last": view["last"],
        "happened": [text for event in public_events(last, seat) if (text := game.describe(event, names))],
        "winners": view["winners"],
        "prompt": prompt(view["phase"], mine),
        "actions": [dict(action) for action in game.legal_actions(state, seat)] if mine and seat is not None else [],
    }


def prompt(phase: str, mine: bool) -> str:
    """Say what the viewer does now: place, move, or wait."""
    if not mine:
        return ""
    if phase == "placement":
        return _("Your turn: tap a lit 1-fish tile to place a penguin.")
    return _("Your turn: tap one of your penguins, then a lit tile to slide it there.")
