"""Check seasons: calendar bounds, and a season rated from fresh ratings with the all-time rules."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from storage import ratings
from storage.database import Database
from storage.seasons import season_board, season_of
from tests.clock import Clock
from tests.storage.test_fairness import played


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url, clock=Clock(datetime(2025, 1, 31, 20, 0, tzinfo=UTC)))
    await database.open()
    yield database
    await database.close()


def test_seasons_are_whole_calendar_months_aligned_on_january() -> None:
    when = datetime(2025, 5, 17, 12, tzinfo=UTC)
    assert season_of(when, 1) == (datetime(2025, 5, 1, tzinfo=UTC), datetime(2025, 6, 1, tzinfo=UTC))
    assert season_of(when, 3) == (datetime(2025, 4, 1, tzinfo=UTC), datetime(2025, 7, 1, tzinfo=UTC))
    assert season_of(when, 12) == (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))
    december = datetime(2025, 12, 31, 23, 59, tzinfo=UTC)
    assert season_of(december, 3) == (datetime(2025, 10, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))


async def test_a_season_starts_fresh_and_rates_its_games_as_all_time_does(db: Database) -> None:
    january = season_of(db.clock(), 1)
    for _ in range(3):
        await played(db, [(1, None), (2, None)], [1, 2], [(0, "move"), (1, "move"), (0, "move"), (1, "end")])
    db.clock.advance(24)  # type: ignore[attr-defined]  # into February
    february = season_of(db.clock(), 1)
    await played(db, [(2, None), (3, None)], [1, 2], [(0, "move"), (1, "move"), (0, "move"), (1, "end")])
    old = await season_board(db, 1, "fish", *january)
    new = await season_board(db, 1, "fish", *february)
    assert [r.player for r in old] == ["user:1", "user:2"] and [r.games for r in old] == [3, 3]
    # January alone is exactly the all-time rating of the January games (nothing else was played then).
    assert (old[0].mu, old[0].sigma) == next((x.mu, x.sigma) for _k, x, _p in await ratings.ratings_of(db, 1, 1))
    # February starts fresh: player 2 won their first game of the season like a newcomer beating a newcomer.
    assert [r.player for r in new] == ["user:2", "user:3"] and [(r.games, r.wins) for r in new] == [(1, 1), (1, 0)]
    seats = [ratings.Entry("a", 1, None, 0, 1, 0, True), ratings.Entry("b", 2, None, 1, 2, 0, False)]
    fresh = ratings.rate_match({}, seats)
    assert (new[0].mu, new[0].sigma) == pytest.approx(fresh["a"])
    assert new[0].mu != next(x.mu for _k, x, _p in await ratings.ratings_of(db, 1, 2))  # all time remembers January
