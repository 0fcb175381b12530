"""Check that a move out of turn is refused with whose turn it is, in every game, and changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from engine.base import IllegalAction
from engine.registry import get
from storage import patience
from storage.database import Database, Seat
from ui.errors import not_your_turn
from ui.loading import GameLoader
from ui.locks import GameLocks
from ui.moves import Moves

NAMES = ["Alice", "Bob", "Cy"]


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(str(tmp_path / "moves.db"))
    await database.open()
    yield database
    await database.close()


async def started(db: Database, kind: str, players: int, seed: int) -> int:
    """Save an active game of `kind` with Alice, Bob (and Cy) seated; return its number."""
    row = await db.create_game(guild_id=1, channel_id=2, kind=kind, host=Seat(0, 100, NAMES[0]), options={}, seed=seed)
    for seat in range(1, players):
        await db.seat_player(row.id, 100 + seat, NAMES[seat], players)
    game, lobby = get(kind), await db.game(row.id)
    assert lobby is not None
    await db.start_game(row.id, game.dump(game.new_game(players, {}, seed)), lobby.version)
    return row.id


def moves(db: Database) -> Moves:
    return Moves(db, GameLoader(db), None, None, GameLocks(), lambda game_id: None)  # type: ignore[arg-type]


def test_the_refusal_names_the_one_player_or_everyone_being_waited_for() -> None:
    assert not_your_turn(NAMES, [1]) == "It is not your turn: it is Bob's turn."
    assert not_your_turn(NAMES, [0, 2]) == "It is not your turn: waiting for Alice and Cy."
    assert not_your_turn(NAMES, [0, 1, 2]) == "It is not your turn: waiting for Alice, Bob and Cy."
    assert not_your_turn(NAMES, []) == "It is not your turn."


@pytest.mark.parametrize("kind", ["fish", "tank", "flippers"])
async def test_a_move_out_of_turn_says_whose_turn_it_is_and_saves_nothing(kind: str, db: Database) -> None:
    game_id = await started(db, kind, 3, seed=4)
    game = get(kind)
    if kind == "flippers":  # leaders are placed in turn, then everyone discards at once: wait on two of three
        for _ in range(20):
            current = await db.game(game_id)
            assert current is not None
            state = game.load(current.state or {})
            acting = game.to_act(state)
            if len(acting) == 2:
                break
            await moves(db).commit(game_id, game.legal_actions(state, acting[0])[0], user_id=100 + acting[0])
    before = await db.game(game_id)
    assert before is not None
    state = game.load(before.state or {})
    waiting = game.to_act(state)
    idle = next(s for s in range(3) if s not in waiting)
    action = game.legal_actions(state, waiting[0])[0]
    with pytest.raises(IllegalAction) as refused:
        await moves(db).commit(game_id, action, user_id=100 + idle)
    assert str(refused.value) == not_your_turn(NAMES, waiting)
    assert all(NAMES[s] in str(refused.value) for s in waiting)
    assert len(waiting) == (2 if kind == "flippers" else 1)
    after = await db.game(game_id)
    assert after is not None and (after.version, after.state) == (before.version, before.state)


async def test_a_moves_queries_may_wait_longer_for_a_pooled_connection(db: Database) -> None:
    game_id = await started(db, "fish", 2, seed=4)
    patient_reads: list[bool] = []
    read = db.game

    async def game(number: int) -> object:
        patient_reads.append(patience.PATIENT.get())
        return await read(number)

    db.game = game  # type: ignore[method-assign,assignment]
    with pytest.raises(IllegalAction):
        await moves(db).commit(game_id, {"type": "place", "tile": "nowhere"}, user_id=100)
    assert patient_reads == [True] and patience.PATIENT.get() is False
