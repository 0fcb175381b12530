"""Check the computer players' pools: sized to the machine, hints apart, and the seed a move is thought with."""

from __future__ import annotations

import asyncio
import os
import threading
from types import SimpleNamespace
from typing import Any, cast

import pytest

from engine.registry import get
from storage import takebacks
from storage.database import ACTIVE
from ui.bots import BotPlayers
from ui.seeds import computer_seed
from ui.thinkers import HINT_WORKERS, THINKERS_ENV, THINKERS_PER_CORE, Thinkers, thinkers


def test_the_pool_has_several_thinkers_per_core_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(THINKERS_ENV, raising=False)
    assert thinkers() == max(4, THINKERS_PER_CORE * (os.cpu_count() or 1))
    monkeypatch.setenv(THINKERS_ENV, "3")
    assert thinkers() == 3
    monkeypatch.setenv(THINKERS_ENV, "0")
    with pytest.raises(ValueError, match=THINKERS_ENV):
        thinkers()


async def test_hints_think_in_a_pool_of_their_own() -> None:
    # Before: hints ran in the single worker computer players think in, so 20 hints held a table's move 23 s.
    pools = Thinkers("thread", size=3)
    try:
        assert pools.hints is not pools.moves
        assert cast(Any, pools.moves)._max_workers == 3
        view = get("fish").view(get("fish").new_game(2, {}, 3), 0)
        action = await pools.choose("fish", view, 0, "hard", 1, 0.01)
        assert action in get("fish").legal_actions(get("fish").new_game(2, {}, 3), 0)
    finally:
        pools.close()


async def test_a_computer_move_is_thought_while_every_hint_worker_is_busy() -> None:
    # Issue 35: with one pool for both, 20 hints in 10 s made another table's computer player answer in 23.6 s.
    pools = Thinkers("thread", size=1)
    released = threading.Event()
    loop = asyncio.get_running_loop()
    busy = [loop.run_in_executor(pools.hints, released.wait) for _ in range(HINT_WORKERS + 2)]  # and queued
    try:
        state = get("fish").new_game(2, {}, 3)
        view = get("fish").view(state, 0)
        async with asyncio.timeout(60):  # a shared pool would wait here until the hints are released: never
            action = await pools.choose("fish", view, 0, "easy", 1, 0.01)
        assert action in get("fish").legal_actions(state, 0)
        assert not any(job.done() for job in busy), "the hints were still thinking meanwhile"
    finally:
        released.set()
        await asyncio.gather(*busy)
        pools.close()


async def test_a_computer_move_is_thought_with_the_one_way_seed_of_its_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get("tank")
    state = game.new_game(2, {}, 99)
    seat = game.to_act(state)[0]
    row = SimpleNamespace(
        id=1, status=ACTIVE, version=4, kind="tank", seed=99, seats=[SimpleNamespace(is_bot=True)] * 2
    )

    async def saved(game_id: int) -> Any:
        return row

    async def nothing_remembered(*args: Any) -> None:
        return None  # no takeback went back to this position

    monkeypatch.setattr(takebacks, "remembered", nothing_remembered)
    db = SimpleNamespace(game=saved)
    loader = SimpleNamespace(live=lambda r: (game, state))
    players = BotPlayers(cast(Any, db), cast(Any, loader), cast(Any, None), workers="thread")
    asked: list[int] = []

    async def think(kind: str, view: dict[str, Any], seat: int, level: str, seed: int) -> dict[str, Any]:
        asked.append(seed)
        raise asyncio.CancelledError

    players.think = think  # type: ignore[method-assign]
    with pytest.raises(asyncio.CancelledError):
        await players.play_for(1, seat, "hard", 4)
    assert asked == [computer_seed(99, seat, game.view(state, seat))]
    assert asked[0] != 99 + 4
    await players.close()
