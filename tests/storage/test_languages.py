"""Check the languages kept on SQLite and PostgreSQL: each game's, each server's choice, each user's client."""

from __future__ import annotations

import pytest

from storage.database import Database, Seat
from storage.languages import server_language, set_server_language, set_user_language, user_language, user_languages


@pytest.fixture
async def db(database_url: str):
    database = Database(database_url)
    await database.open()
    yield database
    await database.close()


async def test_a_game_keeps_the_language_it_was_created_in(db: Database) -> None:
    row = await db.create_game(
        guild_id=1, channel_id=10, kind="fish", host=Seat(0, 100, "H"), options={}, seed=1, language="ja"
    )
    assert row.language == "ja"
    await db.start_game(row.id, {"x": 1}, row.version)
    started = await db.game(row.id)
    assert started is not None and started.language == "ja"
    older = await db.create_game(guild_id=1, channel_id=11, kind="fish", host=Seat(0, 100, "H"), options={}, seed=1)
    assert older.language is None  # a game from before languages were kept reads English


async def test_a_server_choice_is_stored_and_replaced(db: Database) -> None:
    assert await server_language(db, 1) is None
    await set_server_language(db, 1, "de")
    await set_server_language(db, 2, "es")
    await set_server_language(db, 1, "pt_BR")
    assert (await server_language(db, 1), await server_language(db, 2), await server_language(db, None)) == (
        "pt_BR",
        "es",
        None,
    )


async def test_a_user_language_is_remembered_with_the_latest_client(db: Database) -> None:
    big = 2**62  # Discord ids are 64-bit
    assert await user_language(db, big) is None
    await set_user_language(db, big, "ja")
    await set_user_language(db, 7, "de")
    await set_user_language(db, big, "es")
    assert await user_language(db, big) == "es"
    assert await user_languages(db, [big, 7, 8]) == {big: "es", 7: "de"}
    assert await user_languages(db, []) == {}
