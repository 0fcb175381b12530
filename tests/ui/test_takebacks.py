"""Check that a takeback's request and its buttons read in the language of the channel they are posted in."""

from __future__ import annotations

from i18n import using
from ui.takeback_buttons import TakebackButton
from ui.takeback_plans import prompt

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
