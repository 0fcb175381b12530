"""Rate a server's season: its games only, replayed from fresh ratings with the all-time rules.

A season is a run of whole calendar months in UTC (a server chooses 1, 3 or 12; 0 turns seasons off), aligned
on January: quarterly seasons start in January, April, July and October. A season's ratings are not stored:
they are derived on reading from the games `storage/ratings.py` has rated, in the same order, with the same
model and fair-play rules (storage/fairness.py), so they cannot drift from the all-time ratings; every player
starts the season as a newcomer, and the past seasons stay readable because the results they come from are kept.
"""

from __future__ import annotations

from datetime import UTC, datetime

from storage.database import Database
from storage.fairness import REPEAT_WINDOW, aged, repeat_weight
from storage.ratings import Rating, catch_up, fair_changes, game_entries, game_pace


def season_of(when: datetime, months: int) -> tuple[datetime, datetime]:
    """Return the start and end (excluded) of the season of `months` months that holds `when`."""
    index = when.year * 12 + when.month - 1
    first = index - index % months
    start = datetime(first // 12, first % 12 + 1, 1, tzinfo=UTC)
    last = first + months
    return start, datetime(last // 12, last % 12 + 1, 1, tzinfo=UTC)


async def season_board(db: Database, guild_id: int, kind: str, start: datetime, end: datetime) -> list[Rating]:
    """Return every player rated in a server's game from `start` to `end`, best first by mu - 3 sigma."""
    await catch_up(db, guild_id, kind)
    ratings: dict[str, Rating] = {}
    last: dict[str, datetime] = {}
    async with db.backend.transaction() as tx:
        games = await tx.fetch(
            "SELECT game_id, seq, finished_at, pairing FROM rated_games WHERE guild_id = ? AND kind = ?"
            " AND finished_at >= ? AND finished_at < ? ORDER BY seq",
            (guild_id, kind, start.isoformat(), end.isoformat()),
        )
        for game in games:
            entries, no_gain = await game_entries(tx, int(game["game_id"]), kind)
            if len({e.side for e in entries}) < 2:
                continue
            finished = datetime.fromisoformat(game["finished_at"])
            weight = 1.0
            if game["pairing"] is not None:
                since = (finished - REPEAT_WINDOW).isoformat()  # as all time: across a season's start too
                rows = await tx.fetch(
                    "SELECT COUNT(*) FROM rated_games WHERE guild_id = ? AND kind = ? AND pairing = ?"
                    " AND finished_at >= ? AND seq < ?",
                    (guild_id, kind, game["pairing"], since, game["seq"]),
                )
                weight = repeat_weight(int(rows[0][0]))
            weight *= await game_pace(tx, int(game["game_id"]), entries, game["finished_at"])
            current = {
                p: (r.mu, aged(r.sigma, (finished - last[p]).total_seconds() / 86400)) for p, r in ratings.items()
            }
            for player, (mu, sigma) in fair_changes(current, entries, no_gain, weight).items():
                mine = [e for e in entries if e.player == player]
                old = ratings.get(player)
                scores = [e.score for e in mine] + ([old.best_score] if old and old.best_score is not None else [])
                ratings[player] = Rating(
                    player, mine[0].user_id, mine[0].bot_level, mu, sigma, (old.games if old else 0) + 1,
                    (old.wins if old else 0) + int(any(e.winner for e in mine)), max(scores),
                )
                last[player] = finished
    return sorted(ratings.values(), key=lambda r: (-r.conservative, -r.games, r.player))

