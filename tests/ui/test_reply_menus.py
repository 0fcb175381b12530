"""Check which private answers count as a live game menu, and how one is greyed out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from storage.database import Database, Seat
from storage.menus import ReplyMenu, remember_reply, reply_menus
from ui.answers import AnswerKeeper
from ui.components import button, select, view_of
from ui.reply_menus import ReplyMenus, game_of, greyed_view


def _message(view: discord.ui.View) -> Any:
    """Return a stand-in for a message that carries a view's components, as Discord sends them back."""
    rows = [discord.ActionRow(row) for row in view.to_components()]  # type: ignore[arg-type]
    return SimpleNamespace(components=rows)


async def test_a_menu_of_a_game_is_found_by_its_custom_id() -> None:
    menu = select(42, 7, "discard", "Discard 2 cards…", [("Flip", "c-flip"), ("Plus", "c-plus")])
    assert game_of(view_of([menu])) == 42
    assert game_of(view_of([button(42, 7, "hand?", "Hand", disabled=True)])) is None  # nothing live
    assert game_of(None) is None
    other = discord.ui.View()
    other.add_item(discord.ui.Button(label="Docs", url="https://example.com"))
    assert game_of(other) is None  # not a game's menu


async def test_greying_out_disables_every_live_item_and_skips_a_message_with_none() -> None:
    view = view_of([select(42, 7, "discard", "Discard…", [("Flip", "c-flip")]), button(42, 7, "hand?", "Hand")])
    assert view is not None
    grey = greyed_view(_message(view))
    assert grey is not None and grey.is_finished()  # nothing listens to it
    assert [getattr(item, "disabled", None) for item in grey.children] == [True, True]
    assert [getattr(item, "custom_id", None) for item in grey.children] == [
        getattr(item, "custom_id", None) for item in view.children
    ]
    assert greyed_view(_message(grey)) is None


async def test_no_saved_token_outlives_its_fifteen_minutes_between_two_checks(tmp_path: Path) -> None:
    now = [datetime(2026, 12, 1, 12, 0, tzinfo=UTC)]
    db = Database(f"sqlite:///{tmp_path / 'floe.db'}", clock=lambda: now[0])
    await db.open()
    try:
        row = await db.create_game(guild_id=1, channel_id=10, kind="fish", host=Seat(0, 100, "Ana"), options={}, seed=5)
        await remember_reply(db, ReplyMenu(5, 2, "secret-token", True, row.id, 100, now[0].timestamp()))
        keeper = AnswerKeeper(SimpleNamespace(), db, clock=lambda: now[0].timestamp())  # type: ignore[arg-type]
        keeper.expirers.append(ReplyMenus(SimpleNamespace(), db).prune)  # type: ignore[arg-type]
        now[0] += timedelta(minutes=14, seconds=40)  # the answer keeper checks every 5 s; reminders every 60 s
        await keeper.check()
        assert await reply_menus(db, row.id) == []
    finally:
        await db.close()
