"""Test the computer players' task keeping."""

from __future__ import annotations

from typing import Any, cast

from ui.bots import BotPlayers


async def test_no_computer_turn_starts_once_the_players_are_closed() -> None:
    players = BotPlayers(cast(Any, None), cast(Any, None), cast(Any, None), workers="thread")
    await players.close()
    players.schedule(1)  # a move answered during shutdown must not start a task that outlives the database
    assert not players._tasks
