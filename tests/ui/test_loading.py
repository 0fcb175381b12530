"""Check that a finished game shows what was decided when it ended, whatever today's rules would say."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from cogs.flippers import FlippersAdapter
from engine.legacy import rules_for
from engine.registry import get
from storage.database import FINISHED, Database
from tests.ui.old_games import NAMES, save_schema1_game, schema1_game
from ui.adapter import adapter_for, register
from ui.loading import GameLoader
from ui.publishing import board_content

register(FlippersAdapter())


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(str(tmp_path / "old.db"))
    await database.open()
    yield database
    await database.close()


async def test_an_old_finished_game_shows_its_own_standings_not_todays_rescoring(db: Database) -> None:
    game_id = await save_schema1_game(db, 16)
    row = await db.game(game_id)
    assert row is not None and row.status == FINISHED and row.rules is None
    board = GameLoader(db).board(row)
    content = board_content(board, [])
    then = {s["seat"]: s["score"] for s in schema1_game(16)["standings"]}
    assert {s.seat: s.score for s in board.game.outcome(board.state).standings} == then
    assert "2. Bob (Macaroni): 2 points" in content and "1. 🏆 Cy (Emperor): 14 points" in content
    later = rules_for("flippers", 2)
    rescored = adapter_for("flippers").standings_lines(later.outcome(later.load(row.state or {})), NAMES[:3])
    assert not set(rescored) <= set(content.splitlines())  # the Leader rules would have told another story
    assert board.game.view(board.state, None)["final"] is True


async def test_an_old_game_still_in_play_goes_on_under_todays_rules(db: Database) -> None:
    game_id = await save_schema1_game(db, 16)
    row = await db.game(game_id)
    assert row is not None
    row.status = "active"
    game, _ = GameLoader(db).live(row)
    assert game is get("flippers")


async def test_the_outbox_rebuilds_an_old_games_earlier_board_under_its_own_rules(db: Database) -> None:
    from ui.outbox import Outbox

    row = await db.game(await save_schema1_game(db, 47))
    assert row is not None
    row.posted_version = row.version - 3  # the last three moves' boards never reached the channel
    row.board_message_id = 555
    outbox = Outbox(None, db, GameLoader(db), None)  # type: ignore[arg-type]
    previous, events = await outbox._since_posted(row)
    assert previous is not None and previous.game.schema_version == 1 and previous.version == row.posted_version
    log = schema1_game(47)["log"]
    assert [e.kind for e in events] == [e["kind"] for entry in log[-3:] for e in entry["events"]]
