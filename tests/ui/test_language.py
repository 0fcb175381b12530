"""Who reads which language: the caller's for replies (remembered once per change), the game's for posts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from i18n import current, using
from storage.database import Database, Seat, StorageError
from storage.languages import set_server_language, user_language
from ui import language
from ui.language import Readers, dm_language, in_game_language, posting_language


@pytest.fixture
async def db(tmp_path: Path):
    database = Database(f"sqlite:///{tmp_path}/floe.db")
    await database.open()
    yield database
    await database.close()


def interaction(user_id: int, locale: discord.Locale, guild_locale: discord.Locale | None = None) -> Any:
    """Return what the language rules read of an interaction."""
    return SimpleNamespace(user=SimpleNamespace(id=user_id), locale=locale, guild_id=5, guild_locale=guild_locale)


async def test_an_interaction_answers_in_its_callers_language_and_remembers_it_once(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    readers, writes = Readers(db), []
    store = language.set_user_language

    async def counted(*args: Any) -> None:
        writes.append(args[1:])
        await store(*args)

    monkeypatch.setattr(language, "set_user_language", counted)

    async def enter(locale: discord.Locale) -> str:
        await readers.enter(interaction(1, locale))
        return current()  # the rest of the interaction's task writes in it

    assert await asyncio.create_task(enter(discord.Locale.spain_spanish)) == "es"
    assert await asyncio.create_task(enter(discord.Locale.latin_american_spanish)) == "es"
    assert await asyncio.create_task(enter(discord.Locale.japanese)) == "ja"
    assert current() == "en"  # each interaction's language stays in its own task
    assert writes == [(1, "es"), (1, "ja")]
    assert await user_language(db, 1) == await dm_language(db, 1) == "ja"
    assert await dm_language(db, 2) == "en"  # never seen: English


async def test_a_database_outage_does_not_stop_the_answer(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    async def down(*args: Any) -> None:
        raise StorageError("the database is unavailable")

    monkeypatch.setattr(language, "set_user_language", down)
    assert await Readers(db).enter(interaction(1, discord.Locale.german)) == "de"


async def test_a_new_game_takes_the_servers_choice_else_its_discord_language(db: Database) -> None:
    brazil = discord.Locale.brazil_portuguese
    assert await posting_language(db, interaction(1, discord.Locale.german, brazil)) == "pt_BR"
    assert await posting_language(db, interaction(1, discord.Locale.german, discord.Locale.french)) == "en"
    assert await posting_language(db, interaction(1, discord.Locale.german, None)) == "en"
    await set_server_language(db, 5, "ja")
    assert await posting_language(db, interaction(1, discord.Locale.german, brazil)) == "ja"


async def test_a_posting_method_writes_in_its_games_language_whoever_calls_it(db: Database) -> None:
    row = await db.create_game(
        guild_id=5, channel_id=6, kind="fish", host=Seat(0, 1, "H"), options={}, seed=1, language="de"
    )

    class Poster:
        @in_game_language
        async def post(self, board: Any) -> str:
            return current()

        @in_game_language
        async def lost(self, game_id: int) -> str:
            return current()

    with using("ja"):
        assert await Poster().post(SimpleNamespace(row=row)) == "de"
        assert current() == "ja"
        with pytest.raises(TypeError):
            await Poster().lost(row.id)
