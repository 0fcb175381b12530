"""Check that the move history of an old game reads as it was told when it was played."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from engine.base import Event
from engine.legacy import rules_for
from storage.database import Database
from tests.ui.old_games import NAMES, save_schema1_game, schema1_game
from ui.history import ANNOUNCEMENTS, TURN_PREFIX, history_page


async def test_an_old_games_history_is_told_by_the_rules_it_was_played_under(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "old.db"))
    await db.open()
    try:
        row = await db.game(await save_schema1_game(db, 5))
        assert row is not None
        flow = SimpleNamespace(db=db)
        first, pages = await history_page(flow, row, 1)  # type: ignore[arg-type]
        last, _ = await history_page(flow, row, pages)  # type: ignore[arg-type]
    finally:
        await db.close()
    old = rules_for("flippers", 1)
    told = [
        text
        for entry in schema1_game(5)["log"]
        for data in entry["events"]
        if data.get("private_to") is None
        and data["kind"] not in ANNOUNCEMENTS
        and (text := TURN_PREFIX.sub("", old.describe(Event(**data), NAMES[:2])))
    ]
    assert f"page 1 of {pages}" in first and told[0] in first
    assert last.splitlines()[-1].endswith(told[-1]) and told[-1].startswith("Game over: ")


async def test_a_game_no_kept_rules_can_replay_is_refused_plainly_and_keeps_its_result(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    import pytest

    from ui.errors import UserError
    from ui.records import replay_file

    db = Database(str(tmp_path / "old.db"))
    await db.open()
    pool = ThreadPoolExecutor(2)
    try:
        game_id = await save_schema1_game(db, 5)
        await db.backend.execute("UPDATE games SET seed = seed + 1 WHERE id = ?", (game_id,))  # a log no deal explains
        row = await db.game(game_id)
        flow = SimpleNamespace(db=db, renderer=SimpleNamespace(pool=pool))
        with pytest.raises(UserError, match="played under rules this bot no longer keeps"):
            await replay_file(flow, row)  # type: ignore[arg-type]
        assert len(await db.player_stats(100, 1)) == 1
    finally:
        pool.shutdown()
        await db.close()
