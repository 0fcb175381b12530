"""Check that refusals read in the language of the player they answer, with names listed as it lists them."""

from __future__ import annotations

from i18n import using
from storage.database import StaleVersion
from ui.errors import message_for, not_your_turn

NAMES = ["Alice", "Bob", "Cy"]


def test_a_move_out_of_turn_is_refused_in_the_players_language() -> None:
    with using("de"):
        assert not_your_turn(NAMES, [1]) == "Du bist nicht am Zug: Bob ist am Zug."
        assert not_your_turn(NAMES, [0, 2, 5]) == "Du bist nicht am Zug: Wir warten auf Alice, Cy und Platz 6."
    with using("ja"):
        assert not_your_turn(NAMES, []) == "あなたの手番ではありません。"
        assert not_your_turn(NAMES, [0, 1]) == "あなたの手番ではありません。AliceとBobを待っています。"


def test_a_stale_board_and_a_bug_are_explained_in_the_players_language() -> None:
    with using("pt_BR"):
        assert (
            message_for(StaleVersion("old"))
            == "Este tabuleiro está desatualizado: use o tabuleiro mais recente do canal."
        )
        assert message_for(RuntimeError("boom")).startswith("Algo deu errado do nosso lado")
    assert message_for(StaleVersion("old")) == "This board is out of date: use the newest board in the channel."
