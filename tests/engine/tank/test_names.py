"""10 Gallon Tank's fish, cards and goals are named in the player's language, in views, lines and refusals."""

from __future__ import annotations

import pytest

from engine.base import Event, IllegalAction
from engine.tank import GAME
from engine.tank.names import card_name, goal_name, goal_text, kind_name
from i18n import using


@pytest.mark.parametrize(
    ("language", "one", "several"),
    [
        ("en", "Guppy", "Guppies"),
        ("de", "Guppy", "Guppys"),
        ("pt_BR", "Guppy", "Guppys"),
        ("ja", "グッピー", "グッピー"),
    ],
)
def test_a_fish_kind_takes_the_number_asked_for(language: str, one: str, several: str) -> None:
    with using(language):
        assert (kind_name("guppy", 1), kind_name("guppy", 2)) == (one, several)


def test_the_chest_is_named_as_a_card_and_a_molly_keeps_its_printed_value() -> None:
    with using("de"):
        assert kind_name("chest", 3) == "Schatztruhe"
    with using("pt_BR"):
        assert card_name("molly-3") == "Molinésia 2"
    assert card_name("molly-3") == "Molly 2"


def test_a_goal_reads_in_the_language_with_its_number_filled_in() -> None:
    assert (goal_name("big_school"), goal_text("big_school")) == ("Big School", "At least 6 fish of one type")
    with using("es"):
        assert (goal_name("big_school"), goal_text("big_school")) == (
            "Gran cardumen",
            "Al menos 6 peces de un mismo tipo",
        )
    with using("ja"):
        assert goal_text("full_tank") == "魚カードを12枚以上（宝箱は魚ではない）"


def test_a_view_built_in_a_language_names_every_card_and_goal_in_it() -> None:
    state = GAME.new_game(3, {}, 4)
    english = GAME.view(state, 0)
    with using("de"):
        german = GAME.view(state, 0)
    kinds = {k["key"]: (k["name"], k["plural"]) for k in german["by_kind"]}
    assert kinds["discus"] == ("Diskus", "Diskusse") and kinds["angelfish"] == ("Skalar", "Skalare")
    goal = english["goal"]["key"]
    assert (
        german["goal"]["name"]
        == {"community": "Gesellschaftsbecken", "big_school": "Großer Schwarm", "full_tank": "Volles Becken"}[goal]
    )
    assert german["goal"]["name"] != english["goal"]["name"] and german["goal"]["text"].startswith("Mindestens")
    pairs = [
        (g, e) for gr, er in zip(german["grid"], english["grid"], strict=True) for g, e in zip(gr, er, strict=True) if g
    ]
    assert pairs and all(g["id"] == e["id"] for g, e in pairs)
    with using("de"):
        assert all(g["name"] == card_name(g["id"]) for g, _e in pairs)
    assert all(e["name"] == card_name(e["id"]) for _g, e in pairs)


def test_a_refusal_quotes_the_group_as_typed_in_portuguese() -> None:
    state = GAME.new_game(3, {}, 4)
    with using("pt_BR"), pytest.raises(IllegalAction) as refused:
        GAME.apply(state, GAME.to_act(state)[0], {"type": "split", "group": "Q", "line": "h1"})
    assert str(refused.value) == 'Não existe o grupo "Q".'


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        (
            "de",
            "Gruppe 3 (1 Karte) blieb übrig und wurde abgeworfen.",
            "Gruppe 3 (2 Karten) blieb übrig und wurde abgeworfen.",
        ),
        ("es", "El grupo 3 (1 carta) sobró y se descartó.", "El grupo 3 (2 cartas) sobró y se descartó."),
        ("pt_BR", "O grupo 3 (1 carta) sobrou e foi descartado.", "O grupo 3 (2 cartas) sobrou e foi descartado."),
    ],
)
def test_a_leftover_group_counts_its_cards_in_each_language(language: str, one: str, two: str) -> None:
    with using(language):
        lines = [GAME.describe(Event("leftover", None, {"group": "C", "count": n}), []) for n in (1, 2)]
    assert lines == [one, two]
