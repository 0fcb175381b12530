"""Check the recorded private menus on SQLite and PostgreSQL: ephemeral replies kept with their token, then dropped."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.fish import GAME
from storage.database import Database, Seat
from storage.menus import ReplyMenu, forget_replies, forget_replies_before, remember_reply, reply_menus

BIG = 2**62 + 7  # Discord snowflakes need 64-bit columns


@pytest.fixture
async def db(database_url: str):
    database = Database(database_url)
    await database.open()
    yield database
    await database.close()


async def active_game(db: Database, channel_id: int = 10) -> int:
    row = await db.create_game(
        guild_id=1, channel_id=channel_id, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5
    )
    await db.seat_player(row.id, 101, "Bo", max_seats=4)
    await db.start_game(row.id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    return row.id


def reply(game_id: int, message_id: int, user_id: int = BIG - 2, sent_at: float = 1_000.5) -> ReplyMenu:
    return ReplyMenu(message_id, BIG - 1, "token-" + "x" * 200, True, game_id, user_id, sent_at)


async def test_a_reply_is_kept_with_its_token_per_game_and_player(db: Database, database_url: str) -> None:
    game, other = await active_game(db), await active_game(db, channel_id=11)
    first, second, theirs = (
        reply(game, BIG),
        reply(game, BIG - 3, sent_at=1_001.0),
        reply(game, BIG - 4, user_id=7, sent_at=1_002.0),
    )
    for r in (second, first, theirs, reply(other, BIG - 5)):
        await remember_reply(db, r)
    assert await reply_menus(db, game) == [first, second, theirs]  # oldest first
    assert await reply_menus(db, game, BIG - 2) == [first, second]
    await db.close()
    again = Database(database_url)
    await again.open()
    try:
        assert await reply_menus(again, game, 7) == [theirs]  # kept across a restart
    finally:
        await again.close()
        await db.open()


async def test_answering_the_same_message_again_keeps_the_newest_token(db: Database) -> None:
    game = await active_game(db)
    await remember_reply(db, reply(game, BIG))
    newer = replace(reply(game, BIG, sent_at=1_300.0), token="newer", original=False)
    await remember_reply(db, newer)
    assert await reply_menus(db, game) == [newer]


async def test_replies_are_forgotten_by_id_and_by_age(db: Database) -> None:
    game = await active_game(db)
    for n, sent_at in enumerate((100.0, 200.0, 300.0, 400.0)):
        await remember_reply(db, reply(game, BIG - n, sent_at=sent_at))
    assert await forget_replies_before(db, 250.0) == 2
    await forget_replies(db, BIG - 3)
    await forget_replies(db)
    assert [r.message_id for r in await reply_menus(db, game)] == [BIG - 2]
