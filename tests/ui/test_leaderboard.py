"""Check the leaderboard: recently active players, more than a top ten, and the lines around the reader."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from storage.database import Database
from storage.server_rules import ServerRules, save_server_rules
from tests.clock import Clock
from tests.storage.test_fairness import played
from ui.errors import UserError
from ui.ratings import ACTIVE_DAYS, SHOWN, leaderboard_text
from ui.seasons import season_text


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
        await played(db, [(winner, None), (100, None)], [1, 2], [(0, "move"), (0, "end")])
    text = await leaderboard_text(db, 1, "fish", 100)
    listed = places(text)
    assert len(listed) > 10 and [p for p, _ in listed[:SHOWN]] == list(range(1, SHOWN + 1))
    last = SHOWN + 3  # user 100 lost every game
    assert "\n…\n" in text and listed[-1] == (last, 100), text
    assert [p for p, _ in listed[SHOWN:]] == list(range(last - 2, last + 1))
    assert "…" not in await leaderboard_text(db, 1, "fish", 1)  # a reader among the best sees the best only


async def test_the_board_shows_only_players_active_recently(db: Database) -> None:
    await played(db, [(1, None), (2, None)], [1, 2], [(0, "move"), (0, "end")])
    db.clock.advance(24 * (ACTIVE_DAYS + 1))  # type: ignore[attr-defined]
    text = await leaderboard_text(db, 1, "fish", 1)
    assert text == "Nobody has played a rated game of Hey, That's My Fish! in this server in the last 90 days.", text
    await played(db, [(3, None), (2, None)], [1, 2], [(0, "move"), (0, "end")])
    assert {u for _, u in places(await leaderboard_text(db, 1, "fish"))} == {2, 3}


async def test_monthly_seasons_start_fresh_and_keep_the_old_season_and_all_time(database_url: str) -> None:
    database = Database(database_url, clock=Clock(datetime(2025, 1, 31, 22, 0, tzinfo=UTC)))
    await database.open()
    try:
        await save_server_rules(database, 1, ServerRules(season_months=1))
        for _ in range(2):
            await played(database, [(1, None), (2, None)], [1, 2], [(0, "move"), (0, "end")])
        january = await season_text(database, 1, "fish", 1, None)
        assert "season 2025-01-01 to 2025-01-31" in january and places(january) == [(1, 1), (2, 2)], january
        database.clock.advance(24)  # type: ignore[attr-defined]  # February 1st: a new season
        fresh = await season_text(database, 1, "fish", 1, None)
        assert fresh == "Nobody has finished a rated game of Hey, That's My Fish! in this server this season" \
            " (2025-02-01 to 2025-02-28) yet.", fresh
        await played(database, [(3, None), (1, None)], [1, 2], [(0, "move"), (0, "end")])
        february = await season_text(database, 1, "fish", 3, None)
        assert places(february) == [(1, 3), (2, 1)] and "like 2025-01" in february, february
        assert "1 game, 1 win" in february
        assert await season_text(database, 1, "fish", 1, "2025-01") == january.replace(
            "Every player starts a season afresh; only its rated games count. See a past season with `season:` and a"
            " month in it (like 2024-12), or all time with `season:all`.",
            "Only the rated games of that season count, every player starting it afresh.",
        )
        all_time = await season_text(database, 1, "fish", 1, "all")
        assert all_time == await leaderboard_text(database, 1, "fish", 1)
        assert {u for _, u in places(all_time)} == {1, 2, 3}
        with pytest.raises(UserError, match='"2025-13" is not a season'):
            await season_text(database, 1, "fish", 1, "2025-13")
    finally:
        await database.close()


async def test_a_server_without_seasons_sees_the_all_time_board_as_before(db: Database) -> None:
    await played(db, [(1, None), (2, None)], [1, 2], [(0, "move"), (0, "end")])
    db.clock.advance(24 * 40)  # type: ignore[attr-defined]  # over a month boundary
    await played(db, [(3, None), (2, None)], [1, 2], [(0, "move"), (0, "end")])
    assert await season_text(db, 1, "fish", 1, None) == await leaderboard_text(db, 1, "fish", 1)
    assert "season" not in await season_text(db, 1, "fish", 1, None)
    with pytest.raises(UserError, match="does not run seasons"):
        await season_text(db, 1, "fish", 1, "2025-01")
