"""Work out what a takeback would undo and word what it asks, before anything is saved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Game
from engine.replay import step
from engine.takeback import Refused, clause, logged_events, position, undoable
from engine.words import join_names
from i18n import _, ngettext
from storage import takebacks as store
from storage.database import GameRow
from ui.errors import UserError
from ui.publishing import ANNOUNCEMENTS, describe


class Plan:
    """Hold what a takeback would undo: the log entries (oldest first) and how the board described them."""

    def __init__(self, entries: list[dict[str, Any]], moves: list[str]) -> None:
        self.entries = entries
        self.moves = moves

    @property
    def versions(self) -> list[int]:
        """Return the log versions taken back."""
        return [int(e["version"]) for e in self.entries]


def plan(game: Game, row: GameRow, log_entries: Sequence[dict[str, Any]], seat: int) -> Plan:
    """Return what `seat` would take back: its last move and the computer moves after it, or refuse with why."""
    try:
        undo = undoable(game.key, log_entries, {s.seat for s in row.seats if s.is_bot}, seat)
    except Refused as refused:
        raise UserError(str(refused)) from None
    moves = [
        "; ".join(
            clause(t)
            for e in logged_events(entry)
            if e.private_to is None and e.kind not in ANNOUNCEMENTS and (t := describe(game, e, row.names))
        )
        for entry in undo
    ]
    return Plan(undo, [m for m in moves if m])


def remember_replies(
    game: Game, row: GameRow, back: Any, undone: Sequence[dict[str, Any]]
) -> list[tuple[str, list[object]]]:
    """Return the statements that remember each undone computer reply under the position it answered.

    `back` is the state the takeback returns to; the undone entries are played on a copy of it to find them.
    """
    statements: list[tuple[str, list[object]]] = []
    trial = game.load(game.dump(back))
    for entry in undone:
        seat = entry["seat"]
        if seat is not None and row.seats[seat].is_bot:
            statements.append(store.remembering(row.id, seat, position(game.dump(trial), seat), entry["action"]))
        step(game, trial, entry)
    return statements


def used_up(most: int) -> str:
    """Refuse a takeback only computer players would be asked about, once the player has made `most` of them."""
    if most == 0:
        return _("This server allows no takebacks when only computer players would be asked.")
    return ngettext(
        "You have made the {n} takeback this server allows in a game when only computer players are asked.",
        "You have made the {n} takebacks this server allows in a game when only computer players are asked.",
        most,
    )


def prompt(name: str, moves: Sequence[str], people: Sequence[str]) -> str:
    """Return the message asking `people` (their mentions) to let `name` take back `moves` (their board lines)."""
    told = "; ".join(clause(m) for m in moves)
    values = {"name": name, "moves": told, "people": join_names(people)}
    if told:
        # TRANSLATORS: {moves} are the lines of the moves taken back, joined by "; ".
        return ngettext(
            "{name} asks to take back: {moves}.\n"
            "{people}: accept or decline within 10 minutes. It is taken back only if you accept.",
            "{name} asks to take back: {moves}.\n"
            "{people}: accept or decline within 10 minutes. It is taken back only if everyone accepts.",
            len(people),
            **values,
        )
    return ngettext(
        "{name} asks to take back: their last move.\n"
        "{people}: accept or decline within 10 minutes. It is taken back only if you accept.",
        "{name} asks to take back: their last move.\n"
        "{people}: accept or decline within 10 minutes. It is taken back only if everyone accepts.",
        len(people),
        **values,
    )


def still_playing(game: Game, state: Any, seat: int) -> bool:
    """Return False for a seat that has resigned (read from the standings' detail, as every game records it)."""
    standing = next((s for s in game.outcome(state).standings if s.seat == seat), None)
    return standing is None or not standing.detail.get("resigned", False)
