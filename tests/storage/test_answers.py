"""Check pending answers on SQLite and PostgreSQL: saved with the move, listed after a restart, dropped."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.fish import GAME
from storage.answers import PendingAnswer, PendingAnswers
from storage.database import Database, Seat, StaleVersion

BIG = 2**62 + 7  # Discord snowflakes need 64-bit columns


@pytest.fixture
async def db(database_url: str):
    database = Database(database_url)
    await database.open()
    yield database
    await database.close()


async def active_game(db: Database) -> int:
    row = await db.create_game(guild_id=1, channel_id=10, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5)
    await db.seat_player(row.id, 101, "Bo", max_seats=4)
    await db.start_game(row.id, GAME.dump(GAME.new_game(2, {}, 5)), 0)
    return row.id


def answer(game_id: int, interaction_id: int = BIG, created_at: float = 1_000.0) -> PendingAnswer:
    return PendingAnswer(interaction_id, BIG - 1, "token-" + "x" * 200, game_id, 2, BIG - 2, created_at)


async def move(db: Database, game_id: int, also: list[tuple[str, tuple[object, ...]]]) -> int:
    state = GAME.new_game(2, {}, 5)
    seat = GAME.to_act(state)[0]
    action = GAME.legal_actions(state, seat)[0]
    GAME.apply(state, seat, action)
    return await db.record_action(
        game_id, 1, GAME.dump(state), seat=seat, user_id=100, action=action, events=[], finished=False, also=also
    )


async def test_an_answer_is_saved_with_its_move_and_survives_a_reopen(db: Database, database_url: str) -> None:
    game_id = await active_game(db)
    owed = answer(game_id)
    assert await move(db, game_id, [PendingAnswers.saving(owed)]) == 2
    await db.close()
    again = Database(database_url)
    await again.open()
    try:
        assert await PendingAnswers(again.backend).all() == [owed]
    finally:
        await again.close()
        await db.open()


async def test_an_answer_is_not_saved_when_its_move_is_refused(db: Database) -> None:
    game_id = await active_game(db)
    await move(db, game_id, [])
    with pytest.raises(StaleVersion):
        await move(db, game_id, [PendingAnswers.saving(answer(game_id))])
    assert await PendingAnswers(db.backend).all() == []


async def test_answers_are_forgotten_by_id_and_by_age(db: Database) -> None:
    game_id = await active_game(db)
    store = PendingAnswers(db.backend)
    for n, created in enumerate((100.0, 200.0, 300.0, 400.0)):
        await store.save(answer(game_id, BIG - 10 - n, created))
    await store.save(replace(answer(game_id, BIG - 10, 100.0), version=5))
    assert [a.version for a in await store.all()] == [5, 2, 2, 2], "a second save keeps the newest version"
    await store.forget(BIG - 11, BIG - 12)
    assert await store.forget_older_than(150.0) == 1
    assert [a.created_at for a in await store.all()] == [400.0]
    await store.forget()
    assert len(await store.all()) == 1


async def test_answers_promised_together_are_saved_in_one_transaction(db: Database) -> None:
    game_id = await active_game(db)
    owed = [answer(game_id, BIG - 10 - n) for n in range(3)]
    await PendingAnswers(db.backend).save_many(owed)
    await PendingAnswers(db.backend).save_many([])
    assert sorted(a.interaction_id for a in await PendingAnswers(db.backend).all()) == sorted(
        a.interaction_id for a in owed
    )
