"""Save finished games as an older bot left them: schema-1 Flippers games with no rules versions recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.legacy import rules_for
from engine.replay import replay
from storage.database import Database, Result, Seat

FIXTURE = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "flippers_schema1_finished.json"
NAMES = ["Ana", "Bob", "Cy", "Di", "Ed", "Flo"]


def schema1_game(seed: int) -> dict[str, Any]:
    """Return the finished schema-1 Flippers game of this seed from the fixture (written by the schema-1 code)."""
    return next(g for g in json.loads(FIXTURE.read_text())["games"] if g["seed"] == seed)


async def save_schema1_game(
    db: Database, seed: int, *, guild_id: int = 1, channel_id: int = 2, users: list[int] | None = None
) -> int:
    """Save a finished schema-1 Flippers game move by move, with its results, as the old bot did; return its id."""
    old = schema1_game(seed)
    rules = rules_for("flippers", 1)
    players = old["players"]
    ids = users or [100 + seat for seat in range(players)]
    row = await db.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        kind="flippers",
        host=Seat(0, ids[0], NAMES[0]),
        options=old["options"],
        seed=seed,
    )
    for seat in range(1, players):
        await db.seat_player(row.id, ids[seat], NAMES[seat], players)
    states = replay(rules, players, old["options"], seed, old["log"])
    version = await db.start_game(row.id, rules.dump(next(states)), 0)
    for entry, state in zip(old["log"], states, strict=True):
        over = rules.is_over(state)
        results = (
            [Result(s["seat"], ids[s["seat"]], False, s["score"], s["rank"], s["winner"]) for s in old["standings"]]
            if over
            else []
        )
        version = await db.record_action(
            row.id,
            version,
            rules.dump(state),
            seat=entry["seat"],
            user_id=ids[entry["seat"]],
            action=entry["action"],
            events=entry["events"],
            finished=over,
            results=results,
        )
    return row.id
