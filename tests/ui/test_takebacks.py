"""Check a takeback's words in the channel's language, and that a new board reads requests only when some may wait."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from i18n import using
from storage import takebacks as store
from ui.takeback_buttons import TakebackButton
from ui.takeback_plans import prompt
from ui.takebacks import Takebacks

MOVES = ["Ana played Plus at N15 facing north.", "Bot 1 (easy) played Flip at O15 facing west."]


def test_the_english_request_is_worded_as_before() -> None:
    assert prompt("Ana", MOVES, ["<@2>", "<@3>"]) == (
        "Ana asks to take back: Ana played Plus at N15 facing north; Bot 1 (easy) played Flip at O15 facing west.\n"
        "<@2> and <@3>: accept or decline within 10 minutes. It is taken back only if everyone accepts."
    )
    assert prompt("Ana", [], ["<@2>"]).startswith("Ana asks to take back: their last move.\n<@2>: accept")


def test_a_request_reads_in_the_games_language_with_its_moves_and_people() -> None:
    with using("de"):
        german = prompt("Ana", MOVES[:1], ["<@2>"])
    with using("ja"):
        japanese = prompt("Ana", MOVES[:1], ["<@2>", "<@3>"])
        last_move = prompt("Ana", [], ["<@2>"])
    assert german == (
        "Ana möchte zurücknehmen: Ana played Plus at N15 facing north.\n"
        "<@2>: Nimm innerhalb von 10 Minuten an oder lehne ab. Es wird nur zurückgenommen, wenn du annimmst."
    )
    assert japanese == (
        "Anaが待ったを申し込みました：Ana played Plus at N15 facing north。\n"
        "<@2>と<@3>：10分以内に同意か拒否を選んでください。同意がそろった場合にだけ取り消されます。"
    )
    assert last_move.startswith("Anaが待ったを申し込みました：直前の手。\n<@2>：")


def test_the_buttons_are_labelled_in_the_language_they_are_made_in() -> None:
    with using("pt_BR"):
        labels = [TakebackButton(what, 4, 9).item.label for what in ("accept", "decline", "offer")]
    assert labels == ["Aceitar", "Recusar", "Desfazer minha jogada"]
    assert TakebackButton("offer", 4, 9).item.label == "Take back my move"


def watcher(monkeypatch: pytest.MonkeyPatch, pending: list[Any]) -> tuple[Takebacks, list[int], list[int]]:
    """Return takebacks whose game 7 has the `pending` requests, the versions it read at and the versions it ended."""
    takebacks = Takebacks(None, None, None, None, None)  # type: ignore[arg-type]
    reads: list[int] = []
    ended: list[int] = []

    async def pending_for(db: Any, game_id: int) -> list[Any]:
        reads.append(game_id)
        return [r for r in pending if r.version not in ended]

    async def end(request: Any, status: str) -> bool:
        ended.append(request.version)
        return True

    monkeypatch.setattr(store, "pending_for", pending_for)
    monkeypatch.setattr(takebacks, "_end", end)
    return takebacks, reads, ended


async def test_a_new_board_reads_no_requests_of_a_game_it_found_none_in_since(monkeypatch: pytest.MonkeyPatch) -> None:
    takebacks, reads, _ = watcher(monkeypatch, [])
    await takebacks._moved_on(7, 5)
    await takebacks._moved_on(7, 6)
    assert reads == [7], "read the requests of a game this process had found none in"


async def test_a_request_asked_on_the_newest_board_is_ended_by_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    takebacks, reads, ended = watcher(monkeypatch, [SimpleNamespace(version=5)])
    await takebacks._moved_on(7, 5)
    await takebacks._moved_on(7, 6)
    await takebacks._moved_on(7, 7)
    assert ended == [5] and reads == [7, 7]


async def test_a_request_asked_while_reading_keeps_the_game_unsettled(monkeypatch: pytest.MonkeyPatch) -> None:
    takebacks, reads, _ = watcher(monkeypatch, [])
    read = store.pending_for

    async def asked_meanwhile(db: Any, game_id: int) -> list[Any]:
        takebacks.asked += 1
        return await read(db, game_id)

    monkeypatch.setattr(store, "pending_for", asked_meanwhile)
    await takebacks._moved_on(7, 5)
    await takebacks._moved_on(7, 6)
    assert reads == [7, 7]
