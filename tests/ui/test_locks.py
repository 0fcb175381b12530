"""Check the per-game locks: one change at a time per game, and no lock kept for a game nobody is changing."""

from __future__ import annotations

import asyncio

from ui.locks import GameLocks


async def test_changes_to_one_game_run_one_at_a_time_and_leave_no_lock_behind() -> None:
    locks = GameLocks()
    inside: list[int] = []
    most = 0

    async def change(game_id: int) -> None:
        nonlocal most
        async with locks.hold(game_id):
            inside.append(game_id)
            most = max(most, inside.count(game_id))
            await asyncio.sleep(0.001)
            inside.remove(game_id)

    await asyncio.gather(*(change(game_id) for game_id in [1, 2, 3] * 20))
    assert most == 1
    assert len(locks) == 0


async def test_a_failed_change_lets_go_of_its_lock() -> None:
    locks = GameLocks()
    try:
        async with locks.hold(7):
            raise ValueError("boom")
    except ValueError:
        pass
    assert len(locks) == 0
    async with locks.hold(7):
        assert len(locks) == 1
