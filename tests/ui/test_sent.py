"""A message's menus are greyed out as they were sent, without fetching it, and only while they are known."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ui.components import button, view_of
from ui.sent import SentComponents


class Http:
    """Record message edits."""

    def __init__(self) -> None:
        self.edits: list[tuple[int, int, Any]] = []

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> None:
        self.edits.append((channel_id, message_id, params.payload))


async def test_menus_are_greyed_out_from_what_was_sent_once_and_forgotten_after() -> None:
    http = Http()
    sent = SentComponents(SimpleNamespace(http=http), most=2)  # type: ignore[arg-type]
    sent.remember(10, view_of([button(7, 3, "hand", "Show my hand")]))
    sent.remember(11, None)
    components = sent.take(10)
    assert components is not None and sent.take(10) is None
    await sent.grey_out(5, 10, components)
    assert http.edits == [
        (
            5,
            10,
            {"components": [{**components[0], "components": [{**components[0]["components"][0], "disabled": True}]}]},
        )
    ]
    assert sent.take(11) == []  # sent without menus: nothing to grey out
    await sent.grey_out(5, 11, [])
    assert len(http.edits) == 1
    for message_id in (20, 21, 22):
        sent.remember(message_id, None)
    assert sent.take(20) is None  # only the newest two are kept
