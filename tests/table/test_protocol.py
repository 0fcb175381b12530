"""The table's messages: what a client may send, and the state a seat is sent."""

from __future__ import annotations

from typing import Any

import pytest

from engine.registry import get
from storage.database import GameRow, Seat
from table.protocol import Move, ProtocolError, Resume, parse, state_message
from table.views import view_for
from ui.loading import GameLoader


def test_a_move_and_a_resume_are_read() -> None:
    move = parse({"type": "move", "version": 3, "action": {"type": "place", "tile": "A1"}, "id": "n1"})
    assert move == Move({"type": "place", "tile": "A1"}, 3, "n1")
    assert parse({"type": "resume", "version": 0}) == Resume(0)


@pytest.mark.parametrize(
    "message",
    [
        None,
        [],
        {"type": "move"},
        {"type": "move", "version": "3", "action": {"type": "place"}},
        {"type": "move", "version": True, "action": {"type": "place"}},
        {"type": "move", "version": -1, "action": {"type": "place"}},
        {"type": "move", "version": 1, "action": ["place"]},
        {"type": "move", "version": 1, "action": {"type": 5}},
        {"type": "move", "version": 1, "action": {"type": "resign"}},
        {"type": "hello", "version": 1},
    ],
)
def test_anything_else_is_refused_with_a_sentence(message: Any) -> None:
    with pytest.raises(ProtocolError, match="reload the table"):
        parse(message)


def fish_row(seats: int = 2) -> GameRow:
    """Return a saved fish game just dealt, seated by users 1..n."""
    game = get("fish")
    state = game.new_game(seats, {}, 7)
    row = GameRow(
        id=5,
        guild_id=1,
        channel_id=2,
        kind="fish",
        status="active",
        host_id=1,
        options={},
        seed=7,
        state=game.dump(state),
        version=4,
        board_message_id=None,
        created_at="2026-01-01T00:00:00+00:00",
        updated_at="2026-01-01T00:00:00+00:00",
        seats=[Seat(seat=i, user_id=i + 1, name=f"p{i}") for i in range(seats)],
    )
    return row


def test_the_seat_to_act_gets_its_legal_actions_and_others_none() -> None:
    row = fish_row()
    mover = state_message(GameLoader(None), row, 0, "en", None)  # type: ignore[arg-type]
    other = state_message(GameLoader(None), row, 1, "en", None)  # type: ignore[arg-type]
    watcher = state_message(GameLoader(None), row, None, "en", None)  # type: ignore[arg-type]
    assert mover["version"] == 4 and mover["kind"] == "fish" and mover["seat"] == 0
    assert {a["type"] for a in mover["table"]["actions"]} == {"place"} and len(mover["table"]["actions"]) > 5
    assert other["table"]["actions"] == [] and watcher["table"]["actions"] == []
    assert mover["table"]["prompt"] and not other["table"]["prompt"]
    assert [s["name"] for s in watcher["table"]["seats"]] == ["p0", "p1"]


def test_the_state_is_written_in_the_watchers_language() -> None:
    row = fish_row()
    english = state_message(GameLoader(None), row, 0, "en", None)  # type: ignore[arg-type]
    german = state_message(GameLoader(None), row, 0, "de", None)  # type: ignore[arg-type]
    assert english["strings"]["reconnecting"] != german["strings"]["reconnecting"]
    assert english["table"]["prompt"] != german["table"]["prompt"]
    assert german["table"]["seats"][0]["score"] == "0 Fische"


def test_every_game_without_a_view_module_has_no_table() -> None:
    assert view_for("fish") is not None
    assert view_for("chess") is None
