"""Read the last move a table view highlights: the public events of the last saved action, whatever their form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Event
from render.common import SEAT_LETTERS, seat_colour, text_on


def public_events(last: Any, seat: int | None) -> list[Event]:
    """Return the events of `last` that `seat` may see, as Event objects.

    `last` is None, an Event, an event dict (Event.to_json()), a list of either, or a dict holding them under
    "events"; events private to another seat (or any private event for a spectator) are dropped.
    """
    if last is None:
        return []
    if isinstance(last, Mapping) and "events" in last:
        last = last["events"]
    items = last if isinstance(last, (list, tuple)) else [last]
    events: list[Event] = []
    for item in items:
        event = item if isinstance(item, Event) else _from_json(item)
        if event is None:
            continue
        if event.private_to is None or (seat is not None and event.private_to == seat):
            events.append(event)
    return events


def _from_json(item: Any) -> Event | None:
    """Return an Event from its JSON form, or None when it is not one."""
    if not isinstance(item, Mapping) or not isinstance(item.get("kind"), str):
        return None
    seat = item.get("seat")
    private = item.get("private_to")
    data = item.get("data")
    return Event(
        item["kind"],
        seat if isinstance(seat, int) else None,
        dict(data) if isinstance(data, Mapping) else {},
        private if isinstance(private, int) else None,
    )


def hex_colour(rgb: tuple[int, int, int]) -> str:
    """Return a colour as a CSS hex string."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def seat_style(seat: int) -> dict[str, str]:
    """Return a seat's colour, the ink that reads on it and its letter, as the channel board draws them."""
    colour = seat_colour(seat)
    return {
        "colour": hex_colour(colour),
        "ink": hex_colour(text_on(colour)),
        "letter": SEAT_LETTERS[seat % len(SEAT_LETTERS)],
    }
