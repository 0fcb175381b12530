"""A table is never sent an older state after a newer one, nor a state of a game it has left."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, cast

import pytest
from aiohttp import web

from engine.fish import GAME
from storage.database import Database, GameRow, Seat
from table.hub import Hub, Watcher
from ui.loading import GameLoader


@dataclass
class FakeSocket:
    """Record what a watcher's socket is sent."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False

    async def send_json(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


class ReadsBefore:
    """The database as a read that started before the newest save sees it: every game row one version old."""

    def __init__(self, db: Database, rows: dict[int, GameRow]) -> None:
        self.backend = db.backend
        self.rows = rows

    async def game(self, game_id: int) -> GameRow | None:
        return self.rows.get(game_id)


async def fish_game(db: Database, channel: int) -> GameRow:
    """Start a 2-player Hey, That's My Fish! game and return its row."""
    row = await db.create_game(
        guild_id=1, channel_id=channel, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5
    )
    await db.seat_player(row.id, 101, "Bo", max_seats=4)
    await db.start_game(row.id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    started = await db.game(row.id)
    assert started is not None
    return started


async def play_first(db: Database, row: GameRow) -> GameRow:
    """Save the seat to act's first legal move; return the new row."""
    assert row.state is not None
    state = GAME.load(row.state)
    seat = GAME.to_act(state)[0]
    action = GAME.legal_actions(state, seat)[0]
    events = GAME.apply(state, seat, action)
    await db.record_action(
        row.id, row.version, GAME.dump(state), seat=seat, user_id=100 + seat, action=action,
        events=[e.to_json() for e in events], finished=False,
    )  # fmt: skip
    after = await db.game(row.id)
    assert after is not None and after.version == row.version + 1
    return after


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """Open a fresh database (SQLite and PostgreSQL)."""
    database = Database(database_url)
    await database.open()
    yield database
    await database.close()


def watching(row: GameRow, socket: FakeSocket) -> Watcher:
    """Return Ana's table on a game."""
    return Watcher(cast(web.WebSocketResponse, socket), 100, "en", row.id, row.channel_id)


async def test_a_state_read_before_a_newer_one_was_pushed_is_not_sent_after_it(db: Database) -> None:
    before = await fish_game(db, 10)
    after = await play_first(db, before)
    hub = Hub(db, GameLoader(db))
    socket = FakeSocket()
    watcher = watching(after, socket)
    hub.join(watcher)
    await hub.push(after.id)  # the move reaches the table
    assert [m["version"] for m in socket.sent] == [after.version]
    slow = Hub(cast(Database, ReadsBefore(db, {before.id: before})), GameLoader(db))
    assert await slow.current(watcher) == before  # a resume whose read began before the move was saved
    assert [m["version"] for m in socket.sent] == [after.version]
    await hub.current(watcher)  # a resume that reads the move: the same state again, never an older one
    assert [m["version"] for m in socket.sent] == [after.version, after.version]


async def test_a_state_of_a_game_the_table_has_left_is_not_sent(db: Database) -> None:
    old = await play_first(db, await fish_game(db, 10))
    new = await fish_game(db, 11)
    hub = Hub(db, GameLoader(db))
    socket = FakeSocket()
    watcher = watching(old, socket)
    hub.join(watcher)
    await hub.move(watcher, new.id)  # the table follows the next game in its channel
    assert [(m["game_id"], m["version"]) for m in socket.sent] == [(new.id, new.version)]
    late = await play_first(db, old)
    await hub.deliver(watcher, {"type": "state", "game_id": old.id, "version": late.version})
    assert [(m["game_id"], m["version"]) for m in socket.sent] == [(new.id, new.version)]


async def test_a_pushed_state_names_the_last_move_of_its_own_version(db: Database) -> None:
    first = await play_first(db, await fish_game(db, 10))
    second = await play_first(db, first)
    slow = Hub(cast(Database, ReadsBefore(db, {first.id: first})), GameLoader(db))
    socket = FakeSocket()
    watcher = watching(first, socket)
    slow.join(watcher)
    await slow.push(first.id)  # the row was read before the second move was saved; its log entry after
    (message,) = socket.sent
    assert message["version"] == first.version
    said = " ".join(message["table"]["happened"])
    assert "Ana" in said and "Bo" not in said, said  # Ana's placement, not Bo's that came after
    assert second.version == first.version + 1
