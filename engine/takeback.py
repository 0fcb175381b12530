"""Say which actions may be taken back, and read an action log that records takebacks (pure, no I/O).

A takeback never deletes a log entry: it appends {"type": "takeback", "undo": [versions]} and the game is
rebuilt by replaying the log without the undone entries. An action may be taken back only when it showed no
player anything they had not seen before: a card drawn from a deck, a new deal, anything private to another
seat. Otherwise the player could take it back and play on knowing what comes next. Nor may a takeback undo a
computer player's reply that showed everyone a card from its hidden hand: back in its hand, that card would be
known to all (the asker's own cards, shown by the asker's own move, may go back: the asker chose to show them).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from engine.base import Action, Event
from engine.words import join_names
from i18n import N_, _, ngettext

TAKEBACK = "takeback"

REVEALING: dict[str, dict[str, str]] = {
    "tank": {"round_start": N_("it dealt the next school of fish from the deck, which everyone has now seen")},
    "flippers": {"drew": N_("it drew a card from a deck")},
}
"""Per game: the events that show something new from a hidden deck, with the reason a takeback is refused.

The reasons complete "That move cannot be taken back: ...", so they start in lower case with no full stop.
"""

SHOWN: dict[str, frozenset[str]] = {"flippers": frozenset({"played"})}
"""Per game: the events in which their seat shows everyone a card from its own hidden hand."""


PRIVATE_CHOICES: dict[str, frozenset[str]] = {
    "tank": frozenset({"discard", "keep"}),
    "flippers": frozenset({"discard"}),
}
"""Per game: the action types a seat chooses in private (nobody else sees which): never offered back after a tap."""


class Refused(Exception):
    """Raise when a move cannot be taken back; the message is the sentence the player reads."""


def refusal(
    kind: str, seat: int | None, action: Action, events: Sequence[Event], asker: int | None = None
) -> str | None:
    """Return why the action `seat` took (with the events it caused) cannot be taken back, or None if it can.

    `asker` is the seat asking (by default `seat`): a card shown from any other seat's hand refuses the takeback.
    The reason is in the current language and completes "That move cannot be taken back: ...".
    """
    asker = seat if asker is None else asker
    # TRANSLATORS: the reasons below complete "That move cannot be taken back: ...".
    if action.get("type") == "resign":
        return _("a resignation cannot be taken back")
    if action.get("type") == TAKEBACK:
        return _("a takeback cannot itself be taken back")
    revealing = REVEALING.get(kind, {})
    for event in events:
        if event.kind == "game_over":
            return _("it ended the game and showed everyone's final holdings")
        if event.kind in revealing:
            return _(revealing[event.kind])
        if event.kind in SHOWN.get(kind, ()) and event.seat != asker:
            return _("a computer player has since played a card from its hand, which everyone has now seen")
        if event.private_to is not None and event.private_to != seat:
            return _("it showed another player something private")
    return None


def last_moves(log: Sequence[Mapping[str, Any]], bots: Collection[int], seat: int) -> list[dict[str, Any]]:
    """Return what `seat` would take back (oldest first): its last move and the computer players' moves after it.

    Refuse when another person has moved since.
    """
    current = effective_log(log)
    undo: list[dict[str, Any]] = []
    i = len(current) - 1
    while i >= 0 and current[i]["seat"] in bots and current[i]["seat"] != seat:
        undo.append(dict(current[i]))
        i -= 1
    if i < 0 or current[i]["seat"] != seat:
        raise Refused(_("Only your own last move can be taken back, and another player has moved since."))
    undo.append(dict(current[i]))
    undo.reverse()
    return undo


def undoable(kind: str, log: Sequence[Mapping[str, Any]], bots: Collection[int], seat: int) -> list[dict[str, Any]]:
    """Return the log entries `seat` may take back (see `last_moves`), or refuse with why, if any showed something."""
    undo = last_moves(log, bots, seat)
    for entry in undo:
        why = refusal(kind, entry["seat"], entry["action"], logged_events(entry), asker=seat)
        if why is not None:
            raise Refused(_("That move cannot be taken back: {why}.", why=why))
    return undo


def alone_against_computers(log: Iterable[Mapping[str, Any]], seat: int) -> int:
    """Return how many takebacks `seat` made in a game that only computer players were asked to agree to."""
    return sum(
        1
        for entry in log
        if (action := entry.get("action") or {}).get("type") == TAKEBACK
        and entry.get("seat") == seat
        and not action.get("agreed")
    )


def position(saved: Mapping[str, Any], seat: int) -> str:
    """Return a key for the position a seat must act in, from the saved state: equal positions, equal keys.

    A computer player's reply is remembered under it when a takeback undoes the reply, so the same position
    gets the same reply again (a takeback cannot re-roll the computer).
    """
    text = json.dumps(saved, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{seat}:{text}".encode()).hexdigest()


def logged_events(entry: Mapping[str, Any]) -> list[Event]:
    """Return the events of one stored log entry."""
    return [Event(e["kind"], e.get("seat"), e.get("data", {}), e.get("private_to")) for e in entry.get("events", [])]


def undone_versions(log: Iterable[Mapping[str, Any]]) -> set[int]:
    """Return the versions of the log entries that later takebacks undid."""
    undone: set[int] = set()
    for entry in log:
        action = entry.get("action") or {}
        if action.get("type") == TAKEBACK:
            undone.update(int(v) for v in action.get("undo", []))
    return undone


def effective_log(log: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Return the entries that make the game's current state: without takebacks and the moves they undid."""
    undone = undone_versions(log)
    return [
        entry
        for entry in log
        if (entry.get("action") or {}).get("type") != TAKEBACK and entry.get("version") not in undone
    ]


def takeback_event(seat: int, undo: Sequence[int], moves: Sequence[str], agreed: Sequence[int]) -> Event:
    """Return the public event a takeback adds to the log: who took back which moves, and who agreed."""
    return Event(TAKEBACK, seat, {"undo": list(undo), "moves": list(moves), "agreed": list(agreed)})


def clause(line: str) -> str:
    """Return a board line without its closing full stop, to join it with others by "; " ("." or "。")."""
    return line.rstrip().rstrip(".。")


def describe_takeback(event: Event, names: Sequence[str]) -> str:
    """Return the history line of a takeback event."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    who = name(event.seat if event.seat is not None else -1)
    moves = [clause(m) for m in event.data.get("moves", []) if m]
    count = len(event.data.get("undo", []))
    # TRANSLATORS: what a takeback undid when the moves' own lines are not known.
    what = "; ".join(moves) if moves else ngettext("a move", "{n} moves", count)
    agreed = [name(s) for s in event.data.get("agreed", [])]
    if agreed:
        return ngettext(
            "{name} took back: {moves}. Agreed by {names}.",
            "{name} took back: {moves}. Agreed by {names}.",
            len(agreed),
            name=who,
            moves=what,
            names=join_names(agreed),
        )
    return _("{name} took back: {moves}. Only computer players were asked, and they agreed.", name=who, moves=what)
