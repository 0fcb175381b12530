"""Derive skill ratings (openskill, storage/rating_model.py) per server and game from the stored results, in order.

Every finished game of a server and game is processed once, in the order (first result's `finished_at`, game
id), and marked in `rated_games`; a rated one updates `ratings` and appends each rated player's new rating to
`rating_history`. The same stored results always give the same ratings: `rebuild` deletes the derived rows and
processes every game again (`python -m storage.rerate`).

Who is rated: people by user id; computer players as one identity per server, game and level ("bot:hard").
A finish counts as the ranking it was (ties share a place); Flippers Team Up sides are teams; resigned seats
rank last (the engines already place them last), and so does a person who handed their seat to a computer
player (in Team Up such a seat is split from a winning side: it does not share the partner's win). Cancelled
and abandoned games have no results; games opened with `rated:false` (or while the server had ratings off)
change nothing. storage/fairness.py decides the rest: seats that resigned inside the abort window are left
out, repeated pairings and games between people decided within seconds count less, and a seat that took a hint
or only beat a much weaker computer player gains nothing (it can still lose).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.base import CorruptState
from engine.registry import get
from storage.backends import IntegrityError, Row, Tx
from storage.database import Database
from storage.fairness import REPEAT_WINDOW, aged, conduct, damp, farmed, pace, pairing, repeat_weight, without_gain
from storage.rating_model import MODEL, Skill
from storage.rating_model import rate as rate_finish

log = logging.getLogger(__name__)

PROVISIONAL = 5
"""A rating counts as provisional until this many rated games."""
HISTORY = 50
"""How many of a player's latest rated games the rating picture shows."""
RECOMPUTED = "ratings_recomputed"
"""The meta key holding when the ratings were last rebuilt (Unix seconds), by a migration or storage.rerate."""
RECOMPUTED_WHY = "ratings_recomputed_why"
"""The meta key holding why a migration rebuilt the ratings ("fair_play"; absent: the fix to shared places)."""


@dataclass(frozen=True)
class Entry:
    """Describe one seat of a finished game as the ratings see it."""

    player: str
    user_id: int | None
    bot_level: str | None
    side: int
    rank: int
    score: int
    winner: bool


@dataclass(frozen=True)
class Rating:
    """Hold one player's rating in one server and game."""

    player: str
    user_id: int | None
    bot_level: str | None
    mu: float
    sigma: float
    games: int
    wins: int
    best_score: int | None

    @property
    def conservative(self) -> float:
        """Return mu - 3 sigma: the skill the player very probably has at least."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """Return True until the player has PROVISIONAL rated games."""
        return self.games < PROVISIONAL

    @property
    def is_bot(self) -> bool:
        """Return True for a computer player's identity."""
        return self.bot_level is not None


def player_key(user_id: int, bot_level: str | None) -> str:
    """Return the rating identity of a seat: the person, or the computer player of that level."""
    return f"bot:{bot_level}" if user_id < 0 else f"user:{user_id}"


def teams_of(entries: Sequence[Entry]) -> tuple[list[list[Entry]], list[int]]:
    """Group entries into sides (in order of first seat) and give each side its best member's rank."""
    sides: dict[int, list[Entry]] = {}
    for entry in entries:
        sides.setdefault(entry.side, []).append(entry)
    teams = list(sides.values())
    return teams, [min(e.rank for e in team) for team in teams]


def rate_match(current: Mapping[str, tuple[float, float]], entries: Sequence[Entry]) -> dict[str, tuple[float, float]]:
    """Return each player's new (mu, sigma) after one finish; players not in `current` start at the defaults.

    An identity seated twice (two computer players of one level) is rated once per seat from the same rating,
    and keeps the mean of the results.
    """
    teams, ranks = teams_of(entries)
    if len(teams) < 2:
        return {}
    skills = [[current.get(e.player, (MODEL.mu, MODEL.sigma)) for e in team] for team in teams]
    rated = rate_finish(skills, [float(r) for r in ranks])
    results: dict[str, list[tuple[float, float]]] = {}
    for team, after in zip(teams, rated, strict=True):
        for entry, skill in zip(team, after, strict=True):
            results.setdefault(entry.player, []).append(skill)
    return {p: (sum(m for m, _ in v) / len(v), sum(s for _, s in v) / len(v)) for p, v in results.items()}


def entries_of(
    kind: str,
    results: Sequence[Row],
    seats: Mapping[int, Row],
    state: str | None,
    left_out: set[int] | frozenset[int],
    resigned: set[int] | frozenset[int] = frozenset(),
) -> list[Entry]:
    """Turn a finished game's stored results and seats into rating entries, leaving out the `left_out` seats.

    In a team game, a seat that resigned (`resigned`) or was handed to a computer player is split from its side
    when that side did not finish last, and ranks below the last side.
    """
    game = get(kind)
    sides = {r["seat"]: r["seat"] for r in results}
    try:
        if state:
            standings = game.outcome(game.load(json.loads(state))).standings
            sides.update({s.seat: int(s.detail.get("side", s.seat)) for s in standings})
    except (CorruptState, ValueError, KeyError, TypeError) as exc:
        log.warning("the final state of a %s game could not be read for its sides: %r", kind, exc)
    teams = len(set(sides.values())) < len(sides)
    worst = max((r["rank"] for r in results), default=0) + 1
    last = worst - 1
    best: dict[int, int] = {}
    for r in results:
        best[sides[r["seat"]]] = min(best.get(sides[r["seat"]], worst), int(r["rank"]))
    entries = []
    for r in sorted(results, key=lambda r: r["seat"]):
        seat = seats.get(r["seat"])
        level = seat["bot_level"] if seat is not None else None
        user_id = int(r["user_id"])
        handed = user_id > 0 and level is not None
        if r["seat"] in left_out:
            continue
        rank, side = worst if handed and not teams else int(r["rank"]), sides[r["seat"]]
        if teams and (handed or r["seat"] in resigned) and best[side] < last:
            rank, side = worst, -1 - int(r["seat"])
        entries.append(
            Entry(
                player_key(user_id, level),
                None if user_id < 0 else user_id,
                level if user_id < 0 else None,
                side,
                rank,
                int(r["score"]),
                bool(r["winner"]) and not handed,
            )
        )
    return entries


async def game_entries(tx: Tx, game_id: int, kind: str) -> tuple[list[Entry], set[str]]:
    """Read one finished game's rating entries (none when it is unrated) and the players who gain nothing from it."""
    flag = await tx.fetch("SELECT rated FROM game_rating WHERE game_id = ?", (game_id,))
    if flag and not flag[0][0]:
        return [], set()
    results = await tx.fetch(
        "SELECT seat, user_id, is_bot, score, rank, winner FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    seats = {r["seat"]: r for r in await tx.fetch("SELECT seat, bot_level FROM seats WHERE game_id = ?", (game_id,))}
    state = await tx.fetch("SELECT state FROM games WHERE id = ?", (game_id,))
    hinted = await tx.fetch("SELECT DISTINCT seat FROM hints WHERE game_id = ? AND unrates = 1", (game_id,))
    log_rows = await tx.fetch("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY version", (game_id,))
    played = conduct((r[0], _action_type(r[1])) for r in log_rows)
    entries = entries_of(kind, results, seats, state[0][0] if state else None, played.aborted(), played.resigned)
    hinters = {int(r[0]) for r in hinted}
    keys = {int(r["seat"]): player_key(int(r["user_id"]), seats[r["seat"]]["bot_level"] if r["seat"] in seats else None)
            for r in results}
    return entries, {keys[s] for s in hinters if s in keys}


def _action_type(action: str) -> str:
    """Return the type of a logged action ("" when it cannot be read)."""
    try:
        found = json.loads(action)
    except ValueError:
        return ""
    return str(found.get("type", "")) if isinstance(found, dict) else ""


async def _ratings_in(tx: Tx, guild_id: int, kind: str, players: Sequence[str]) -> dict[str, Rating]:
    """Return the stored ratings of some players."""
    if not players:
        return {}
    marks = ", ".join("?" for _ in players)
    rows = await tx.fetch(
        "SELECT player, user_id, bot_level, mu, sigma, games, wins, best_score FROM ratings"
        f" WHERE guild_id = ? AND kind = ? AND player IN ({marks})",
        (guild_id, kind, *players),
    )
    return {r["player"]: _rating(r) for r in rows}


def _rating(r: Row) -> Rating:
    """Build a Rating from a `ratings` row."""
    return Rating(
        r["player"],
        r["user_id"],
        r["bot_level"],
        float(r["mu"]),
        float(r["sigma"]),
        int(r["games"]),
        int(r["wins"]),
        r["best_score"],
    )


def fair_changes(
    current: Mapping[str, Skill], entries: Sequence[Entry], no_gain: set[str], weight: float
) -> dict[str, Skill]:
    """Return each player's new (mu, sigma) under the fair-play rules (storage/fairness.py).

    The change is scaled by `weight` (repeated pairings); the `no_gain` players (hints) and people whose only
    victims were much weaker computer players keep their rating when it would rise.
    """
    before = {e.player: current.get(e.player, (MODEL.mu, MODEL.sigma)) for e in entries}
    after = rate_match(current, entries)
    teams, ranks = teams_of(entries)
    skills = [[before[e.player] for e in team] for team in teams]
    robots = [all(e.bot_level is not None for e in team) for team in teams]
    for t, team in enumerate(teams):
        beaten = [(robots[o], skills[o]) for o in range(len(teams)) if ranks[o] > ranks[t]]
        if not robots[t] and farmed(skills[t], beaten):
            no_gain = no_gain | {e.player for e in team}
    changed = {}
    for player, skill in after.items():
        skill = damp(before[player], skill, weight)
        changed[player] = without_gain(before[player], skill) if player in no_gain else skill
    return changed


async def _weight(tx: Tx, guild_id: int, kind: str, key: str | None, finished_at: str) -> float:
    """Return how much a game of the people `key` counts, from their rated games together shortly before."""
    if key is None:
        return 1.0
    since = (datetime.fromisoformat(finished_at) - REPEAT_WINDOW).isoformat()
    rows = await tx.fetch(
        "SELECT COUNT(*) FROM rated_games WHERE guild_id = ? AND kind = ? AND pairing = ? AND finished_at >= ?",
        (guild_id, kind, key, since),
    )
    return repeat_weight(int(rows[0][0]))


async def game_pace(tx: Tx, game_id: int, entries: Sequence[Entry], finished_at: str) -> float:
    """Return how much a game counts for the time from its first move to its result (storage.fairness.pace)."""
    people = len({e.side for e in entries if e.user_id is not None})
    rows = await tx.fetch("SELECT MIN(created_at) FROM actions WHERE game_id = ? AND seat IS NOT NULL", (game_id,))
    if people < 2 or not rows or rows[0][0] is None:
        return 1.0
    seconds = (datetime.fromisoformat(finished_at) - datetime.fromisoformat(rows[0][0])).total_seconds()
    return pace(seconds, people)


async def _days_away(
    tx: Tx, guild_id: int, kind: str, players: Sequence[str], finished_at: str
) -> dict[str, float]:
    """Return the days between each player's last rated game and a game finished at `finished_at`."""
    marks = ", ".join("?" for _ in players)
    rows = await tx.fetch(
        "SELECT h.player, MAX(g.finished_at) FROM rating_history h JOIN rated_games g ON g.game_id = h.game_id"
        f" WHERE h.guild_id = ? AND h.kind = ? AND h.player IN ({marks}) GROUP BY h.player",
        (guild_id, kind, *players),
    )
    now = datetime.fromisoformat(finished_at)
    return {r[0]: (now - datetime.fromisoformat(r[1])).total_seconds() / 86400 for r in rows if r[1]}


async def _apply(
    tx: Tx, game_id: int, guild_id: int, kind: str, seq: int, entries: Sequence[Entry], no_gain: set[str],
    weight: float, finished_at: str,
) -> None:
    """Update the ratings of one game's players and append their new ratings to the history."""
    players = sorted({e.player for e in entries})
    stored = await _ratings_in(tx, guild_id, kind, players)
    away = await _days_away(tx, guild_id, kind, players, finished_at)
    current = {p: (r.mu, aged(r.sigma, away.get(p, 0.0))) for p, r in stored.items()}
    after = fair_changes(current, entries, no_gain, weight)
    for player, (mu, sigma) in sorted(after.items()):
        mine = [e for e in entries if e.player == player]
        old = stored.get(player)
        won = any(e.winner for e in mine)
        best = max([e.score for e in mine] + ([old.best_score] if old and old.best_score is not None else []))
        await tx.execute(
            "INSERT INTO ratings (guild_id, kind, player, user_id, bot_level, mu, sigma, games, wins, best_score)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, player) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
            " best_score = excluded.best_score",
            (
                guild_id,
                kind,
                player,
                mine[0].user_id,
                mine[0].bot_level,
                mu,
                sigma,
                (old.games if old else 0) + 1,
                (old.wins if old else 0) + int(won),
                best,
            ),
        )
        await tx.execute(
            "INSERT INTO rating_history (game_id, player, guild_id, kind, seq, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, player, guild_id, kind, seq, mu, sigma),
        )


async def _waiting(tx: Tx, guild_id: int, kind: str) -> list[Row]:
    """Return the finished games of a server and game not processed yet, in finishing order."""
    return await tx.fetch(
        "SELECT r.game_id, MIN(r.finished_at) AS finished_at FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE COALESCE(r.guild_id, 0) = ? AND r.kind = ? AND g.status = 'finished'"
        " AND NOT EXISTS (SELECT 1 FROM rated_games rg WHERE rg.game_id = r.game_id)"
        " GROUP BY r.game_id ORDER BY MIN(r.finished_at), r.game_id",
        (guild_id, kind),
    )


async def _clear(tx: Tx, guild_id: int, kind: str) -> None:
    """Delete the ratings derived for one server and game."""
    for table in ("ratings", "rating_history", "rated_games"):
        await tx.execute(f"DELETE FROM {table} WHERE guild_id = ? AND kind = ?", (guild_id, kind))


async def catch_up(db: Database, guild_id: int | None, kind: str) -> int:
    """Process the finished games of a server and game not rated yet, in order; return how many.

    When one of them finished before the last game already processed (a crash between saving a result and
    rating it, say), that server's ratings for the game are rebuilt so the order stays the finishing order.
    """
    guild = guild_id or 0
    for attempt in range(3):
        try:
            async with db.backend.transaction() as tx:
                waiting = await _waiting(tx, guild, kind)
                if not waiting:
                    return 0
                last = await tx.fetch(
                    "SELECT seq, finished_at, game_id FROM rated_games WHERE guild_id = ? AND kind = ?"
                    " ORDER BY seq DESC LIMIT 1",
                    (guild, kind),
                )
                seq = int(last[0]["seq"]) if last else 0
                first = (waiting[0]["finished_at"], waiting[0]["game_id"])
                if last and first < (last[0]["finished_at"], last[0]["game_id"]):
                    log.info("ratings of %s in server %s are rebuilt: a game finished out of order", kind, guild)
                    await _clear(tx, guild, kind)
                    waiting, seq = await _waiting(tx, guild, kind), 0
                for row in waiting:
                    seq += 1
                    game_id = int(row["game_id"])
                    entries, no_gain = await game_entries(tx, game_id, kind)
                    rated = len({e.side for e in entries}) >= 2
                    key = pairing(e.user_id for e in entries if e.user_id is not None) if rated else None
                    weight = await _weight(tx, guild, kind, key, row["finished_at"])
                    weight *= await game_pace(tx, game_id, entries, row["finished_at"])
                    await tx.execute(
                        "INSERT INTO rated_games (game_id, guild_id, kind, seq, finished_at, pairing)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, guild, kind, seq, row["finished_at"], key),
                    )
                    if rated:
                        await _apply(tx, game_id, guild, kind, seq, entries, no_gain, weight, row["finished_at"])
                return len(waiting)
        except IntegrityError:
            if attempt == 2:
                raise
            log.info("another process rated %s games in server %s at the same time; trying again", kind, guild)
    return 0


async def catch_up_all(db: Database) -> int:
    """Process every finished game not rated yet, per server and game; return how many."""
    rows = await db.backend.fetch(
        "SELECT DISTINCT COALESCE(r.guild_id, 0), r.kind FROM results r"
        " WHERE NOT EXISTS (SELECT 1 FROM rated_games rg WHERE rg.game_id = r.game_id) ORDER BY 1, 2"
    )
    total = 0
    for r in rows:
        total += await catch_up(db, int(r[0]), str(r[1]))
    return total


async def rebuild(db: Database) -> int:
    """Delete every derived rating and process every finished game again, in order; return how many."""
    async with db.backend.transaction() as tx:
        for table in ("ratings", "rating_history", "rated_games"):
            await tx.execute(f"DELETE FROM {table}")
    games = await catch_up_all(db)
    if games:
        await db.set_meta(RECOMPUTED, str(int(db.clock().timestamp())))
    return games


async def recomputed_since(db: Database) -> datetime | None:
    """Return when every rating was last recomputed from the stored results (a fix to the rules), if ever."""
    value = await db.get_meta(RECOMPUTED)
    return datetime.fromtimestamp(int(value), UTC) if value else None


async def recomputed_why(db: Database) -> str:
    """Return why the ratings were last recomputed: "fair_play" (schema migration 17) or "ties" (migration 14)."""
    return await db.get_meta(RECOMPUTED_WHY) or "ties"


async def leaderboard(db: Database, guild_id: int, kind: str, limit: int = 10) -> list[Rating]:
    """Return a server's best-rated players of a game by mu - 3 sigma (computer players included)."""
    rows = await db.backend.fetch(
        "SELECT player, user_id, bot_level, mu, sigma, games, wins, best_score FROM ratings"
        " WHERE guild_id = ? AND kind = ? ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?",
        (guild_id, kind, limit),
    )
    return [_rating(r) for r in rows]


async def active_board(db: Database, guild_id: int, kind: str, since: str) -> list[Rating]:
    """Return every player of a server's game with a rated game finished at `since` or later, best first."""
    rows = await db.backend.fetch(
        "SELECT player, user_id, bot_level, mu, sigma, games, wins, best_score FROM ratings r"
        " WHERE guild_id = ? AND kind = ? AND EXISTS (SELECT 1 FROM rating_history h"
        "  JOIN rated_games g ON g.game_id = h.game_id WHERE h.guild_id = r.guild_id AND h.kind = r.kind"
        "  AND h.player = r.player AND g.finished_at >= ?)"
        " ORDER BY mu - 3 * sigma DESC, games DESC, player",
        (guild_id, kind, since),
    )
    return [_rating(r) for r in rows]


async def ratings_of(db: Database, guild_id: int, user_id: int) -> list[tuple[str, Rating, int]]:
    """Return a person's rating in each game of a server, with their place among the server's players."""
    rows = await db.backend.fetch(
        "SELECT r.kind, r.player, r.user_id, r.bot_level, r.mu, r.sigma, r.games, r.wins, r.best_score,"
        " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.kind = r.kind"
        "  AND (o.mu - 3 * o.sigma > r.mu - 3 * r.sigma"
        "   OR (o.mu - 3 * o.sigma = r.mu - 3 * r.sigma AND (o.games > r.games"
        "    OR (o.games = r.games AND o.player < r.player))))) AS ahead"
        " FROM ratings r WHERE r.guild_id = ? AND r.player = ? ORDER BY r.kind",
        (guild_id, player_key(user_id, None)),
    )
    return [(r["kind"], _rating(r), int(r["ahead"]) + 1) for r in rows]


async def players_rated(db: Database, guild_id: int, kind: str) -> int:
    """Return how many players (computer identities included) have a rating in a server's game."""
    rows = await db.backend.fetch("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND kind = ?", (guild_id, kind))
    return int(rows[0][0])


async def history(db: Database, guild_id: int, kind: str, player: str, limit: int = HISTORY) -> list[float]:
    """Return a player's conservative rating after each of their latest rated games, oldest first."""
    rows = await db.backend.fetch(
        "SELECT mu, sigma FROM rating_history WHERE guild_id = ? AND kind = ? AND player = ? ORDER BY seq DESC LIMIT ?",
        (guild_id, kind, player, limit),
    )
    return [float(r[0]) - 3 * float(r[1]) for r in reversed(rows)]


async def game_changes(db: Database, game_id: int) -> dict[str, tuple[float, float]]:
    """Return each player's conservative rating before and after one rated game."""
    rows = await db.backend.fetch(
        "SELECT h.player, h.mu, h.sigma, (SELECT p.mu - 3 * p.sigma FROM rating_history p"
        "  WHERE p.guild_id = h.guild_id AND p.kind = h.kind AND p.player = h.player AND p.seq < h.seq"
        "  ORDER BY p.seq DESC LIMIT 1) AS before"
        " FROM rating_history h WHERE h.game_id = ? ORDER BY h.player",
        (game_id,),
    )
    start = MODEL.mu - 3 * MODEL.sigma
    return {
        r["player"]: (start if r["before"] is None else float(r["before"]), float(r["mu"]) - 3 * float(r["sigma"]))
        for r in rows
    }
