"""Check what a player is told, and what is saved, when the network to PostgreSQL fails (through tests/proxy.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from engine.fish import GAME
from storage.database import Database, Seat
from storage.errors import CommitUnknown, DatabaseUnavailable
from tests.postgres import PostgresServer
from tests.proxy import FaultyProxy


@pytest.fixture
async def proxy(postgres: PostgresServer) -> AsyncIterator[FaultyProxy]:
    found = FaultyProxy("127.0.0.1", postgres.port)
    await found.start()
    yield found
    await found.stop()


@pytest.fixture
async def direct(postgres_url: str) -> AsyncIterator[Database]:
    """The database as another process sees it, never through the proxy."""
    db = Database(postgres_url)
    await db.open()
    yield db
    await db.close()


@pytest.fixture
async def db(direct: Database, postgres_url: str, proxy: FaultyProxy) -> AsyncIterator[Database]:
    """The bot's database, reached through the faulty proxy."""
    found = Database(proxy.url(postgres_url), pool_size=2)
    await found.open()
    yield found
    await found.close()


async def started(db: Database, channel: int = 10) -> int:
    row = await db.create_game(guild_id=1, channel_id=channel, kind="fish", host=Seat(0, 100, "Ana"), options={},
                               seed=5)
    await db.seat_player(row.id, 101, "Bo", max_seats=4)
    await db.start_game(row.id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    return row.id


async def move(db: Database, game_id: int, version: int) -> int:
    return await db.record_action(
        game_id, version, {"v": version}, seat=0, user_id=100, action={"n": version}, events=[], finished=False
    )


async def test_a_move_whose_commit_reply_is_lost_is_recognised_as_saved(db: Database, proxy: FaultyProxy) -> None:
    game_id = await started(db)
    proxy.drop_commit_replies(1, writes=b'{"v": 1}')  # a move is one statement, its own COMMIT
    assert await move(db, game_id, 1) == 2
    assert proxy.commits_dropped == 1
    row = await db.game(game_id)
    assert row is not None and row.version == 2 and len(await db.actions(game_id)) == 1


async def test_a_lobby_whose_commit_reply_is_lost_is_the_lobby_the_player_gets(
    db: Database, proxy: FaultyProxy
) -> None:
    proxy.drop_commit_replies(1)
    row = await db.create_game(guild_id=1, channel_id=20, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=9)
    assert proxy.commits_dropped == 1
    assert row.channel_id == 20 and row.host_id == 100 and row.seed == 9
    assert (await db.open_game_in(20)).id == row.id


async def test_a_connection_dying_right_after_commit_still_reports_the_move_saved(
    db: Database, proxy: FaultyProxy
) -> None:
    game_id = await started(db)
    proxy.reset_after_commits(1)
    assert await move(db, game_id, 1) == 2
    assert await move(db, game_id, 2) == 3  # and the pool carries on with a fresh connection


async def test_an_unanswered_move_is_refused_in_time_and_never_applied_later(
    db: Database, direct: Database, proxy: FaultyProxy
) -> None:
    game_id = await started(db)
    proxy.black_hole()
    try:
        async with asyncio.timeout(20):  # a guard against hanging, not a measurement
            with pytest.raises(DatabaseUnavailable) as raised:
                await move(db, game_id, 1)
        # A move is one autocommitted statement (storage/move_sql.py): once sent, its fate is unknown to the
        # client, and the player is told so; the connection is cut, so it can never apply later.
        assert isinstance(raised.value, CommitUnknown), "the move was sent: the player must not read 'nothing changed'"
    finally:
        proxy.heal()
    await asyncio.sleep(1.0)  # whatever was held back in the partition would arrive now
    row = await direct.game(game_id)
    assert row is not None and row.version == 1 and await direct.actions(game_id) == []
    assert await move(db, game_id, 1) == 2


async def test_a_move_whose_commit_goes_unanswered_says_it_may_have_been_saved(
    db: Database, direct: Database, proxy: FaultyProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await started(db)
    proxy.drop_commit_replies(1, writes=b'{"v": 1}')
    monkeypatch.setattr("storage.games.RETRY_DELAYS", ())  # no retry: the player reads the first answer
    original = proxy._relay

    async def relay(link, data, writer, *, upstream):  # type: ignore[no-untyped-def]
        if upstream and link.drop_replies:
            proxy.black_hole()  # the COMMIT went through; then the network fails before its reply
        return await original(link, data, writer, upstream=upstream)

    monkeypatch.setattr(proxy, "_relay", relay)
    try:
        with pytest.raises(CommitUnknown, match="cannot tell whether that was saved"):
            await move(db, game_id, 1)
    finally:
        proxy.heal()
    row = await direct.game(game_id)
    assert row is not None and row.version == 2, "the COMMIT reached the server: the move is saved"


async def test_every_read_has_a_client_side_timeout(db: Database, proxy: FaultyProxy) -> None:
    await started(db)
    proxy.black_hole()
    try:
        async with asyncio.timeout(20):  # a guard against hanging, not a measurement
            with pytest.raises(DatabaseUnavailable):
                await db.open_game_in(10)
    finally:
        proxy.heal()
    assert (await db.open_game_in(10)) is not None
