"""Store a server's switches for ratings, takebacks and hints, whether each game is rated, and the hints asked."""

from __future__ import annotations

from dataclasses import dataclass

from storage.database import Database

COMPUTER_TAKEBACKS = 3
"""Takebacks a player may make per game against computer players alone, unless the server says otherwise."""


@dataclass(frozen=True)
class ServerRules:
    """Hold what a server allows: rated games, takebacks, hints, and takebacks or hints in rated games."""

    ratings: bool = True
    takebacks: bool = True
    rated_takebacks: bool = False
    rated_hints: bool = False
    hints: bool = True
    computer_takebacks: int = COMPUTER_TAKEBACKS
    """How many takebacks a player may make in one game when only computer players are asked."""
    season_months: int = 0
    """How many months a season of the leaderboard lasts (0: no seasons)."""


async def server_rules(db: Database, guild_id: int | None) -> ServerRules:
    """Return a server's rules, or the defaults."""
    rows = await db.backend.fetch(
        "SELECT ratings, takebacks, rated_takebacks, rated_hints, hints, computer_takebacks, season_months"
        " FROM rating_settings"
        " WHERE guild_id = ?",
        (guild_id or 0,),
    )
    if not rows:
        return ServerRules()
    r = rows[0]
    return ServerRules(bool(r[0]), bool(r[1]), bool(r[2]), bool(r[3]), bool(r[4]), int(r[5]), int(r[6]))


async def save_server_rules(db: Database, guild_id: int, rules: ServerRules) -> None:
    """Store a server's rules."""
    await db.backend.execute(
        "INSERT INTO rating_settings (guild_id, ratings, takebacks, rated_takebacks, rated_hints, hints,"
        " computer_takebacks, season_months) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
        " ratings = excluded.ratings, takebacks = excluded.takebacks, rated_takebacks = excluded.rated_takebacks,"
        " rated_hints = excluded.rated_hints, hints = excluded.hints, computer_takebacks = excluded.computer_takebacks,"
        " season_months = excluded.season_months",
        (
            guild_id,
            int(rules.ratings),
            int(rules.takebacks),
            int(rules.rated_takebacks),
            int(rules.rated_hints),
            int(rules.hints),
            rules.computer_takebacks,
            rules.season_months,
        ),
    )


async def set_rated(db: Database, game_id: int, rated: bool) -> None:
    """Record whether a game counts for ratings (decided when its lobby opens)."""
    await db.backend.execute(
        "INSERT INTO game_rating (game_id, rated) VALUES (?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET rated = excluded.rated",
        (game_id, int(rated)),
    )


async def is_rated(db: Database, game_id: int) -> bool:
    """Return True when a game counts for ratings (games from before ratings existed do)."""
    rows = await db.backend.fetch("SELECT rated FROM game_rating WHERE game_id = ?", (game_id,))
    return not rows or bool(rows[0][0])


async def record_hint(db: Database, game_id: int, seat: int, version: int, user_id: int, *, unrates: bool) -> None:
    """Remember that a seat asked for a hint at a version, and whether that takes its game out of its rating."""
    await db.backend.execute(
        "INSERT INTO hints (game_id, seat, version, user_id, unrates, created_at) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, seat, version) DO NOTHING",
        (game_id, seat, version, user_id, int(unrates), db.clock().isoformat()),
    )


async def hinted_seats(db: Database, game_id: int) -> dict[int, bool]:
    """Return the seats that asked for hints in a game, each with whether that made the game unrated for it."""
    rows = await db.backend.fetch(
        "SELECT seat, MAX(unrates) FROM hints WHERE game_id = ? GROUP BY seat ORDER BY seat", (game_id,)
    )
    return {int(r[0]): bool(r[1]) for r in rows}


async def hinted_just_now(db: Database, game_id: int, version: int, seats: int) -> bool:
    """Return True when a hint was asked within the last round of a game at `version` with `seats` seats."""
    rows = await db.backend.fetch(
        "SELECT 1 FROM hints WHERE game_id = ? AND version >= ? LIMIT 1", (game_id, version - seats - 1)
    )
    return bool(rows)
