"""Say which actions may be taken back, and read an action log that records takebacks (pure, no I/O).

A takeback never deletes a log entry: it appends {"type": "takeback", "undo": [versions]} and the game is
rebuilt by replaying the log without the undone entries. An action may be taken back only when it showed no
player anything they had not seen before: a card drawn from a deck, a new deal, anything private to another
seat. Otherwise the player could take it back and play on knowing what comes next.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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


def refusal(kind: str, seat: int | None, action: Action, events: Sequence[Event]) -> str | None:
    """Return why the action `seat` took (with the events it caused) cannot be taken back, or None if it can.

    The reason is in the current language and completes "That move cannot be taken back: ...".
    """
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
        if event.private_to is not None and event.private_to != seat:
            return _("it showed another player something private")
    return None


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


def describe_takeback(event: Event, names: Sequence[str]) -> str:
    """Return the history line of a takeback event."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    who = name(event.seat if event.seat is not None else -1)
    moves = [m.rstrip(".") for m in event.data.get("moves", []) if m]
    count = len(event.data.get("undo", []))
    # TRANSLATORS: what a takeback undid when the moves' own lines are not known.
    what = "; ".join(moves) if moves else ngettext("a move", "{n} moves", count)
    agreed = [name(s) for s in event.data.get("agreed", [])]
    if agreed:
        return _("{name} took back: {moves}. Agreed by {names}.", name=who, moves=what, names=join_names(agreed))
    return _("{name} took back: {moves}. Only computer players were asked, and they agreed.", name=who, moves=what)
