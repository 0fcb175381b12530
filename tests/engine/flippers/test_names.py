"""Flippers names its cards, powers and teams in the player's language, in views, lines and refusals."""

from __future__ import annotations

import pytest

from engine.base import Event, IllegalAction
from engine.flippers import GAME
from engine.flippers.cards import CARDS, POWER_NAMES
from engine.flippers.names import card_name, direction, find_card, power_name, team_name, team_of
from i18n import using
from tests.engine.flippers.helpers import NAMES, table


@pytest.mark.parametrize(
    ("language", "explorer", "food"),
    [
        ("en", "Chinstrap Flip", "Krill"),
        ("de", "Zügel-Wende", "Krill"),
        ("es", "Volteo Barbijo", "Kril"),
        ("pt_BR", "Virada Barbicha", "Krill"),
        ("ja", "ヒゲ・裏返し", "オキアミ"),
    ],
)
def test_a_card_is_named_in_each_language(language: str, explorer: str, food: str) -> None:
    with using(language):
        assert (card_name("c-flip"), card_name("food-1")) == (explorer, food)


@pytest.mark.parametrize("language", ["de", "es", "pt_BR"])
def test_power_names_are_nouns_so_play_by_play_reads_as_names(language: str) -> None:
    """A power is named by a noun ("Wende", "Giro"), never an infinitive that reads as an order."""
    infinitive = ("en",) if language == "de" else ("ar", "er", "ir")
    with using(language):
        names = {key: power_name(key) for key in POWER_NAMES}
    actions = [names[key] for key in ("flip", "bump", "switch", "replace", "turn", "block")]
    verbs = [name for name in actions if name.endswith(infinitive)]
    assert verbs == []
    assert names["flip"].lower() not in names["turn"].lower() and names["turn"].lower() not in names["flip"].lower()


def test_a_player_may_name_a_card_in_english_or_in_their_language() -> None:
    with using("es"):
        assert find_card("volteo barbijo") == "c-flip"
        assert find_card("Chinstrap Flip") == "c-flip"
        assert CARDS["c-flip"].power_name == "Volteo"
    assert find_card("volteo barbijo") is None
    assert find_card("chinstrap bump") == "c-bump" and find_card("C-BUMP") == "c-bump"
    assert find_card("nobody") is None


def test_a_played_card_is_told_in_spanish_with_its_power_and_direction() -> None:
    event = Event("played", 0, {"card": "c-flip", "cell": "N14", "facing": "N"})
    with using("es"):
        assert GAME.describe(event, NAMES) == "Ana jugó Volteo en N14 mirando al norte."
        assert direction("E") == "este"
    assert GAME.describe(event, NAMES) == "Ana played Flip at N14 facing north."


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        (
            "de",
            "Schubs von Ana auf N14 schob 1 Karte ab N15 nach Osten.",
            "Schubs von Ana auf N14 schob 2 Karten ab N15 nach Osten.",
        ),
        (
            "es",
            "Empujón de Ana en N14 empujó 1 carta hacia el este desde N15.",
            "Empujón de Ana en N14 empujó 2 cartas hacia el este desde N15.",
        ),
        (
            "pt_BR",
            "Empurrão de Ana em N14 empurrou 1 carta para o leste a partir de N15.",
            "Empurrão de Ana em N14 empurrou 2 cartas para o leste a partir de N15.",
        ),
    ],
)
def test_a_bump_counts_the_cards_it_pushed(language: str, one: str, two: str) -> None:
    def bump(count: int) -> Event:
        return Event("bump", 0, {"card": "c-bump", "cell": "N14", "count": count, "direction": "E", "from": "N15"})

    with using(language):
        assert [GAME.describe(bump(n), NAMES) for n in (1, 2)] == [one, two]


def test_a_refusal_names_the_cell_in_german_and_changes_nothing() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-flip", "c-bump"]})
    before = GAME.dump(state)
    with using("de"), pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"type": "play", "card": "c-flip", "cell": "A1", "facing": "N"})
    assert str(refused.value) == "A1 liegt neben keiner Karte auf dem Tisch: Spiele neben eine Karte."
    assert GAME.dump(state) == before


def test_a_view_built_in_japanese_names_teams_powers_and_texts_in_japanese() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-leader", "N14", "S", "up")], {0: ["c-flip"], 1: ["m-turn"]})
    with using("ja"):
        view = GAME.view(state, 0)
    assert [(s["team"], s["short"]) for s in view["seats"]] == [
        ("ヒゲペンギン", "ヒゲ"),
        ("マカロニペンギン", "マカロニ"),
    ]
    assert view["hand"] == [
        {
            "id": "c-flip",
            "name": "ヒゲ・裏返し",
            "power": "flip",
            "power_name": "裏返し",
            "text": "対象を矢印の方向に裏返す（エサカードは反対の面になる）。",
        }
    ]
    names = {card["id"]: card["name"] for card in view["cards"]}
    assert names == {"food-1": "オキアミ", "c-leader": "ヒゲ・リーダー"}


def test_a_team_up_side_is_named_from_its_species() -> None:
    assert team_of([0, 2]) == "Team Chinstrap & Emperor"
    with using("de"):
        assert team_of([0, 2]) == "Team Zügel & Kaiser"
        assert team_name(3) == "Weddellrobben"


def test_a_shared_victory_saved_in_the_log_is_told_in_the_readers_language() -> None:
    over = Event(
        "game_over",
        None,
        {
            "scores": [{"total": 9}, {"total": 9}],
            "winners": [0, 1],
            "tiebreak": "Tied: the victory is shared.",
            "teams": False,
            "sides": {},
            "reason": "played",
        },
    )
    with using("de"):
        told = GAME.describe(over, NAMES)
        assert told == "Spielende: Ana (9) und Bob (9) gewinnen. Gleichstand: Der Sieg wird geteilt."
    assert GAME.describe(over, NAMES) == "Game over: Ana (9) and Bob (9) win. Tied: the victory is shared."


def test_three_teams_on_a_side_read_as_one_list() -> None:
    assert team_of([1, 3, 5]) == "Team Macaroni, Weddell & Elephant"
    assert team_of([0, 2]) == "Team Chinstrap & Emperor"
    with using("ja"):
        assert "、" in team_of([1, 3, 5]) and team_of([1, 3, 5]).count("＆") == 1
