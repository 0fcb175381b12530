"""Fill a fresh Ice Floe database with realistic saved games, fast, for bench.latency.

Run from the repository root:  .venv/bin/python -m bench.seed FILE [--games 1000] [--finished 0.7]

A few dozen template games of each kind (2-4 players) are played with random legal moves by the real engines,
each with its action log and events; finished ones to the end (with their results), active ones stopped
mid-game or late in the game. The saved games are copies of those templates spread over many guilds,
channels and players, written by SQL in one transaction on a database the bot's own migrations created.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from engine.registry import get
from storage.database import Database, due_moment

KINDS = ("fish", "tank", "flippers")
NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")
NOW = datetime.now(UTC)


@dataclass
class Template:
    """One game played by the engine: its kind, players, seed, final state and action log."""

    kind: str
    players: int
    seed: int
    state: str
    version: int
    log: list[tuple[int, str, str]]
    """(seat, action JSON, events JSON) in order; the game's version after entry k is k + 2."""
    standings: list[tuple[int, int, int, bool]]
    """(seat, score, rank, winner) once the game is over; empty while it is on."""


def play(kind: str, players: int, seed: int, finished: bool, rng: random.Random) -> Template:
    """Play one game with random legal moves: to the end, or stopped 40-90% of the way through."""
    game = get(kind)
    state = game.new_game(players, {}, seed)
    log: list[tuple[int, str, str]] = []
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        events = game.apply(state, seat, action)
        log.append((seat, json.dumps(action), json.dumps([e.to_json() for e in events])))
    if not finished:
        stop = max(1, int(len(log) * rng.uniform(0.4, 0.9)))
        state = game.new_game(players, {}, seed)
        for seat, action, _ in log[:stop]:
            game.apply(state, seat, json.loads(action))
        log = log[:stop]
    standings = (
        [(s.seat, s.score, s.rank, s.winner) for s in game.outcome(state).standings] if game.is_over(state) else []
    )
    return Template(kind, players, seed, json.dumps(game.dump(state)), len(log) + 1, log, standings)


def templates(per_kind: int, seed: int) -> list[Template]:
    """Play `per_kind` finished and `per_kind` active templates of each game, 2-4 players."""
    rng = random.Random(seed)
    made = []
    for kind in KINDS:
        for n in range(2 * per_kind):
            made.append(play(kind, 2 + n % 3, rng.randrange(2**31), n % 2 == 0, rng))
    return made


async def create_schema(path: str) -> None:
    """Create an empty database with the bot's own migrations."""
    db = Database(path)
    await db.open()
    await db.close()


def seed(path: str, games: int, *, finished_share: float = 0.7, per_kind: int = 12, seed: int = 7) -> dict[str, int]:
    """Write `games` saved games into a new database file; return how many of each status and kind."""
    asyncio.run(create_schema(path))
    if games <= 0:
        return {}
    rng = random.Random(seed)
    made = templates(per_kind, seed)
    done = [t for t in made if t.standings]
    live = [t for t in made if not t.standings]
    rows, seats, actions, results = [], [], [], []
    census: dict[str, int] = {}
    for n in range(1, games + 1):
        template = rng.choice(done if rng.random() < finished_share else live)
        status = "finished" if template.standings else "active"
        census[f"{status} {template.kind}"] = census.get(f"{status} {template.kind}", 0) + 1
        guild = 10_000 + n % 97
        channel = 1_000_000 + n
        users = [50_000 + (n * 7 + k * 131) % 40_000 for k in range(template.players)]
        if len(set(users)) < len(users):
            users = [50_000 + n * 5 + k for k in range(template.players)]
        waited = timedelta(minutes=rng.uniform(5, 60 * 24 * 10 if status == "finished" else 60 * 11))
        updated = (NOW - waited).isoformat()
        created = (NOW - waited - timedelta(minutes=len(template.log) * 2)).isoformat()
        due = due_moment(updated, reminder_hours=12, timeout_hours=None, reminded=False) if status == "active" else None
        rows.append(
            (n, guild, channel, template.kind, status, users[0], "{}", template.seed, template.state,
             template.version, 900_000_000 + n, created, updated, 12.0, None, 0, due)
        )  # fmt: skip
        for k, user in enumerate(users):
            seats.append((n, k, user, NAMES[(n + k) % len(NAMES)] + str(n % 1000)))
        for version, (seat, action, events) in enumerate(template.log, start=2):
            actions.append((n, version, seat, users[seat], action, events, updated))
        for seat, score, rank, winner in template.standings:
            results.append((n, seat, guild, template.kind, users[seat], 0, score, rank, int(winner), updated))
    with sqlite3.connect(path) as conn:
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, kind, status, host_id, options, seed, state, version,"
            " board_message_id, created_at, updated_at, reminder_hours, timeout_hours, reminded_version, due_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.executemany("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)", seats)
        conn.executemany(
            "INSERT INTO actions (game_id, version, seat, user_id, action, events, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            actions,
        )
        conn.executemany(
            "INSERT INTO results (game_id, seat, guild_id, kind, user_id, is_bot, score, rank, winner, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            results,
        )
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        if "posted_version" in columns:  # every saved board was posted, as the outbox migration assumes
            conn.execute("UPDATE games SET posted_version = version")
        conn.execute("COMMIT")
    census["actions"] = len(actions)
    return census


def main() -> None:
    """Seed a database file and say what is in it."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", help="SQLite file to create (must not exist)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--finished", type=float, default=0.7, help="share of finished games (default 0.7)")
    args = parser.parse_args()
    started = time.monotonic()
    census = seed(args.path, args.games, finished_share=args.finished)
    print(f"seeded {args.games} games in {time.monotonic() - started:.1f} s: {census}")


if __name__ == "__main__":
    main()
