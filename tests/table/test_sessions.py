"""Table sessions: a token is bound to the user it was issued for; a forged or expired one is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from storage.database import Database
from table.sessions import SessionRefused, Sessions, token_hash


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """Return an open database on a fresh SQLite file."""
    database = Database(f"sqlite:///{tmp_path / 'table.db'}")
    await database.open()
    yield database
    await database.close()


async def test_a_session_names_the_user_it_was_issued_for(db: Database) -> None:
    sessions = Sessions(db, clock=Clock())
    token = await sessions.issue(42, "Ana", "de")
    session = await sessions.check(token)
    assert (session.user_id, session.name, session.language) == (42, "Ana", "de")


async def test_only_the_tokens_hash_is_stored(db: Database) -> None:
    token = await Sessions(db, clock=Clock()).issue(42, "Ana", "en")
    stored = [row[0] for row in await db.backend.fetch("SELECT token_hash FROM table_sessions", ())]
    assert stored == [token_hash(token)] and token not in stored


@pytest.mark.parametrize("forged", ["", None, "x" * 43, "a" * 500])
async def test_a_forged_token_is_refused(db: Database, forged: str | None) -> None:
    sessions = Sessions(db, clock=Clock())
    await sessions.issue(42, "Ana", "en")
    with pytest.raises(SessionRefused, match="not valid"):
        await sessions.check(forged)


async def test_a_token_is_refused_once_expired_and_forgotten_later(db: Database) -> None:
    clock = Clock()
    sessions = Sessions(db, lifetime=60, clock=clock)
    token = await sessions.issue(42, "Ana", "en")
    clock.now += 59
    assert (await sessions.check(token)).user_id == 42
    clock.now += 1
    with pytest.raises(SessionRefused, match="expired"):
        await sessions.check(token)
    await sessions.issue(7, "Bo", "en")  # a new session sweeps the expired ones away
    assert [row[0] for row in await db.backend.fetch("SELECT user_id FROM table_sessions", ())] == [7]
