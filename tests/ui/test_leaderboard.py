"""Check the leaderboard: recently active players, more than a top ten, and the lines around the reader."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from storage.database import Database
from tests.clock import Clock
from tests.storage.test_fairness import played
from ui.ratings import ACTIVE_DAYS, SHOWN, leaderboard_text


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url, clock=Clock())
    await database.open()
    yield database
    await database.close()


def places(text: str) -> list[tuple[int, int]]:
    """Return (place, user id) of each listed person."""
    return [(int(p), int(u)) for p, u in re.findall(r"^(\d+)\. <@(\d+)>", text, re.M)]


async def test_the_board_lists_more_than_ten_and_the_places_around_the_reader(db: Database) -> None:
    # Before: a top ten only, with no way to see one's own place among the others.
    for winner in range(1, SHOWN + 3):
        await played(db, [(winner, None), (100, None)], [1, 2], [(0, "end")])
    text = await leaderboard_text(db, 1, "fish", 100)
    listed = places(text)
    assert len(listed) > 10 and [p for p, _ in listed[:SHOWN]] == list(range(1, SHOWN + 1))
    last = SHOWN + 3  # user 100 lost every game
    assert "\n…\n" in text and listed[-1] == (last, 100), text
    assert [p for p, _ in listed[SHOWN:]] == list(range(last - 2, last + 1))
    assert "…" not in await leaderboard_text(db, 1, "fish", 1)  # a reader among the best sees the best only


async def test_the_board_shows_only_players_active_recently(db: Database) -> None:
    await played(db, [(1, None), (2, None)], [1, 2], [(0, "end")])
    db.clock.advance(24 * (ACTIVE_DAYS + 1))  # type: ignore[attr-defined]
    text = await leaderboard_text(db, 1, "fish", 1)
    assert text == "Nobody has played a rated game of Hey, That's My Fish! in this server in the last 90 days.", text
    await played(db, [(3, None), (2, None)], [1, 2], [(0, "end")])
    assert {u for _, u in places(await leaderboard_text(db, 1, "fish"))} == {2, 3}
