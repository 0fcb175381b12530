"""The last move a table highlights is read from events in any form, and never shows a seat another's secret."""

from __future__ import annotations

from engine.base import Event
from table.views.events import public_events, seat_style

EVENTS = [
    Event("take", 1, {"group": "B", "count": 3}),
    Event("took", 1, {"group": "B", "cards": ["molly-1"]}, private_to=1),
]


def test_events_come_as_objects_dicts_or_under_events_and_private_ones_reach_only_their_seat() -> None:
    as_json = [e.to_json() for e in EVENTS]
    for last in (EVENTS, as_json, {"events": as_json}):
        assert [e.kind for e in public_events(last, None)] == ["take"]
        assert [e.kind for e in public_events(last, 0)] == ["take"]
        assert [e.kind for e in public_events(last, 1)] == ["take", "took"]
    assert public_events(EVENTS[0], None)[0].data == {"group": "B", "count": 3}


def test_nothing_or_junk_gives_no_events() -> None:
    assert public_events(None, 0) == []
    assert public_events([{"no": "kind"}, 3, "x"], 0) == []


def test_a_seat_is_drawn_in_the_channel_boards_colour_and_letter() -> None:
    assert seat_style(0) == {"colour": "#e69f00", "ink": "#141821", "letter": "A"}
    assert seat_style(1)["letter"] == "B" and seat_style(5)["colour"] == "#d55e00"
