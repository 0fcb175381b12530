"""Promises of answers made in a burst are written a transaction at a time, each caller told of a failure."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from storage.answer_journal import AnswerJournal
from storage.answers import PendingAnswer
from storage.database import Database, Seat
from storage.errors import DatabaseUnavailable
from ui.answers import AnswerKeeper


class Store:
    """Record each write of promises; fail while `down`."""

    def __init__(self) -> None:
        self.writes: list[list[int]] = []
        self.forgotten: list[int] = []
        self.down = False

    async def save_many(self, answers: Sequence[PendingAnswer]) -> None:
        await asyncio.sleep(0.01)  # a write takes a while: promises made meanwhile wait for the next one
        if self.down:
            raise DatabaseUnavailable("the database file is read-only")
        self.writes.append([a.interaction_id for a in answers])

    async def forget(self, *interaction_ids: int) -> None:
        if self.down:
            raise DatabaseUnavailable("the database file is read-only")
        self.forgotten += interaction_ids

    async def forget_older_than(self, created_before: float) -> int:
        return 0


def keeper() -> tuple[AnswerKeeper, Store]:
    """Return an answer keeper writing to a recording store."""
    db: Any = SimpleNamespace(backend=None)
    kept = AnswerKeeper(SimpleNamespace(), db)  # type: ignore[arg-type]
    store = Store()
    kept.store = store  # type: ignore[assignment]
    return kept, store


def owed(interaction_id: int) -> PendingAnswer:
    return PendingAnswer(interaction_id, 2, "token", 7, 0, 3, 1_000.0)


async def test_promises_made_while_one_is_written_share_the_next_write() -> None:
    kept, store = keeper()
    await asyncio.gather(*(kept.promise(owed(n)) for n in range(1, 51)))
    assert sorted(i for write in store.writes for i in write) == list(range(1, 51))
    assert len(store.writes) <= 2
    assert set(kept.owed) == set(range(1, 51))


async def test_a_failed_write_reaches_every_promise_in_it_and_the_next_ones_are_written() -> None:
    kept, store = keeper()
    store.down = True
    results = await asyncio.gather(*(kept.promise(owed(n)) for n in range(1, 4)), return_exceptions=True)
    assert all(isinstance(r, DatabaseUnavailable) for r in results)
    assert kept.owed == {}
    store.down = False
    await kept.promise(owed(9))
    assert store.writes == [[9]]
    assert set(kept.owed) == {9}


async def test_answers_given_stay_listed_until_their_entries_are_dropped_from_the_database() -> None:
    kept, store = keeper()
    await kept.promise(owed(5))
    kept.given(5)
    store.down = True
    with pytest.raises(DatabaseUnavailable):
        await kept.check()
    assert kept._given == [5] and store.forgotten == []
    store.down = False
    await kept.check()
    assert kept._given == [] and store.forgotten == [5]


async def test_no_token_is_kept_once_discord_no_longer_accepts_it(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'floe.db'}")
    await db.open()
    try:
        now = [1_000.0]
        kept = AnswerKeeper(SimpleNamespace(), db, clock=lambda: now[0])  # type: ignore[arg-type]
        row = await db.create_game(guild_id=1, channel_id=10, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5)
        await kept.promise(PendingAnswer(11, 2, "secret-token", row.id, 1, 100, 1_000.0))  # its flow never finishes
        now[0] += 15 * 60 + 1
        await kept.check()
        assert await kept.store.all() == [] and kept.owed == {}
    finally:
        await db.close()


async def test_promises_go_to_the_journal_and_leave_it_once_saved_with_their_move_or_given(tmp_path: Path) -> None:
    kept, store = keeper()
    kept.journal = AnswerJournal(tmp_path)
    await asyncio.gather(*(kept.promise(owed(n)) for n in (1, 2, 3)))
    assert store.writes == [], "a promise waits for no database"
    kept.saved(replace(owed(1), version=4))  # its move's transaction holds it now
    kept.given(2)
    await kept.check()
    kept.journal.close()
    assert await AnswerJournal(tmp_path).take_over() == [owed(3)]


async def test_a_restarted_keeper_answers_what_the_journal_of_a_killed_one_promised(tmp_path: Path) -> None:
    killed, _store = keeper()
    killed.journal = AnswerJournal(tmp_path)
    await killed.promise(owed(8))
    killed.journal.close()  # as the kernel does for a killed process
    restarted, _store = keeper()
    restarted.journal = AnswerJournal(tmp_path)
    restarted.store.all = lambda: asyncio.sleep(0, [])  # type: ignore[method-assign]
    restarted.clock = lambda: 1_001.0
    assert await restarted.load() == 1 and restarted.owed == {8: owed(8)}
