"""Check what the command limits read on SQLite and PostgreSQL: lobbies per host, posted replays."""

from __future__ import annotations

import pytest

from storage.database import CANCELLED, Database, Seat
from storage.posts import Posts


@pytest.fixture
async def db(database_url: str):
    database = Database(database_url)
    await database.open()
    yield database
    await database.close()


async def test_open_lobbies_are_counted_per_host_and_server(db: Database) -> None:
    posts = Posts(db.backend)
    made = []
    for guild, channel, host in ((1, 10, 100), (1, 11, 100), (2, 20, 100), (1, 12, 101)):
        row = await db.create_game(
            guild_id=guild, channel_id=channel, kind="fish", host=Seat(0, host, "H"), options={}, seed=1
        )
        made.append(row.id)
    assert await posts.lobbies_hosted(1, 100) == 2
    assert await posts.lobbies_hosted(2, 100) == 1
    await db.set_status(made[0], CANCELLED)
    assert await posts.lobbies_hosted(1, 100) == 1
    assert await posts.lobbies_hosted(3, 100) == 0


async def test_a_replay_post_is_remembered_and_replaced(db: Database) -> None:
    posts = Posts(db.backend)
    row = await db.create_game(guild_id=1, channel_id=10, kind="fish", host=Seat(0, 100, "H"), options={}, seed=1)
    assert await posts.replay_post(row.id) is None
    await posts.set_replay_post(row.id, 1, 10, 2**62)
    assert await posts.replay_post(row.id) == (10, 2**62)
    await posts.set_replay_post(row.id, 1, 11, 5)
    assert await posts.replay_post(row.id) == (11, 5)
