"""Play random fish moves into a database, printing each version once it is saved (killed by the test)."""

from __future__ import annotations

import asyncio
import random
import sys

from engine.fish import GAME
from storage.database import Database, Seat


async def main(database_url: str) -> None:
    """Write moves forever, acknowledging each on stdout after its transaction commits."""
    db = Database(database_url)
    await db.open()
    seed = 0
    while True:
        row = await db.create_game(
            guild_id=1, channel_id=seed, kind="fish", host=Seat(0, 1, "a"), options={}, seed=seed
        )
        await db.seat_player(row.id, 2, "b", 4)
        state = GAME.new_game(2, {}, seed)
        version = await db.start_game(row.id, GAME.dump(state), 0)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            action = rng.choice(GAME.legal_actions(state, seat))
            GAME.apply(state, seat, action)
            version = await db.record_action(
                row.id,
                version,
                GAME.dump(state),
                seat=seat,
                user_id=seat + 1,
                action=action,
                events=[],
                finished=GAME.is_over(state),
            )
            print(f"{row.id} {version}", flush=True)
        seed += 1


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
