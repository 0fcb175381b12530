"""Check that a game's history page reads in the language of the one who asks for it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from i18n import using
from storage.database import Database
from tests.ui.old_games import save_schema1_game
from ui.errors import UserError
from ui.history import history_buttons, history_page


async def test_a_history_page_and_its_refusal_read_in_the_askers_language(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "old.db"))
    await db.open()
    try:
        row = await db.game(await save_schema1_game(db, 5))
        assert row is not None
        flow = SimpleNamespace(db=db)
        english, pages = await history_page(flow, row, 1)  # type: ignore[arg-type]
        with using("ja"):
            japanese, _pages = await history_page(flow, row, 1)  # type: ignore[arg-type]
            with pytest.raises(UserError) as refused_ja:
                await history_page(flow, row, pages + 4)  # type: ignore[arg-type]
        with using("de"):
            german, _pages = await history_page(flow, row, 1)  # type: ignore[arg-type]
            with pytest.raises(UserError) as refused_de:
                await history_page(flow, row, pages + 4)  # type: ignore[arg-type]
    finally:
        await db.close()
    assert pages == 1
    assert english.splitlines()[0] == f"**Flippers, game #{row.id}: moves, page 1 of 1**"
    assert "`Setup` " in english and "`Turn 1` " in english
    assert japanese.splitlines()[0] == f"**Flippers、ゲーム #{row.id}：手の履歴 1/1ページ**"
    assert "`準備` " in japanese and "`ターン1` " in japanese and "`Turn 1`" not in japanese
    assert german.splitlines()[0] == f"**Flippers, Spiel #{row.id}: Züge, Seite 1 von 1**"
    assert "`Aufbau` " in german and "`Zug 1` " in german
    assert str(refused_de.value) == (
        f"Spiel #{row.id} hat 1 Seite mit Zügen, also gibt es keine Seite 5: Frag nach einer Seite von 1 bis 1."
    )
    assert str(refused_ja.value) == (
        f"ゲーム #{row.id} の手の履歴は1ページなので、5ページはありません。1〜1のページを指定してください。"
    )


def test_the_page_buttons_are_labelled_in_the_askers_language_and_keep_their_ids() -> None:
    with using("es"):
        view = history_buttons(3, 2, 4)
    assert view is not None
    assert [(b.item.label, b.custom_id) for b in view.children] == [  # type: ignore[attr-defined]
        ("Anterior", "floe-history:3:1:p"),
        ("Siguiente", "floe-history:3:3:n"),
    ]
