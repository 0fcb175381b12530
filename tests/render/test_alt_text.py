"""Check every image's alt text over random games: whole, within Discord's limit and free of hidden cards."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.registry import get
from i18n import ENGLISH, LANGUAGES, _, using
from render import fish, flippers, tank
from render.common import ALT_LIMIT, ALT_MORE
from tests.ai.helpers import CONFIGS, config_id
from tests.render.test_flippers import late_table

LONGEST = [c * 32 for c in "ABCDEF"]  # Discord display names are at most 32 characters
MIXED = ["山田太郎", "🐧 Pingu", "שלום", "Ёлка", "x" * 32, "Ana"]

PUBLIC: dict[str, Callable[[dict[str, Any], list[str]], str]] = {
    "fish": fish.alt_text,
    "tank": tank.alt_text_table,
    "flippers": flippers.alt_text_table,
}
PRIVATE: dict[str, Callable[[dict[str, Any], list[str]], str]] = {
    "tank": tank.alt_text_aquarium,
    "flippers": flippers.alt_text_hand,
}


def _whole(text: str) -> None:
    """Fail if alt text is over Discord's limit or had to be cut short."""
    assert len(text) <= ALT_LIMIT, (len(text), text)
    assert ALT_MORE not in text and not text.endswith("…"), text


def _shuffle_hidden(key: str, state: Any, rng: random.Random) -> Any:
    """Return a copy of `state` with every hidden card dealt differently, keeping each pile's size."""
    game = get(key)
    other = game.load(game.dump(state))
    if key == "flippers":
        for seat in range(other.players):
            pool = other.hands[seat] + other.decks[seat]
            rng.shuffle(pool)
            size = len(other.hands[seat])
            other.hands[seat], other.decks[seat] = pool[:size], pool[size:]
    elif key == "tank":
        rng.shuffle(other.deck)
    return other


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), mixed=st.booleans())
def test_every_alt_text_is_whole_and_within_discords_limit_all_game_long(config: tuple, seed: int, mixed: bool) -> None:
    key, players, options = config
    names = (MIXED if mixed else LONGEST)[:players]
    game, rng = get(key), random.Random(seed)
    state = game.new_game(players, options, seed)
    while True:
        public = PUBLIC[key](game.view(state, None), names)
        _whole(public)
        if key in PRIVATE:
            for seat in range(players):
                _whole(PRIVATE[key](game.view(state, seat), names))
        if game.is_over(state):
            break
        if key != "fish" and rng.random() < 0.2:
            hidden = _shuffle_hidden(key, state, rng)
            assert PUBLIC[key](game.view(hidden, None), names) == public, config_id(config)
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    if key == "tank":
        _whole(tank.alt_text_final(game.view(state, None), names))


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != ENGLISH])
@pytest.mark.parametrize("key", ["fish", "tank", "flippers"])
def test_alt_text_is_whole_in_every_language_all_game_long(key: str, language: str) -> None:
    game, rng = get(key), random.Random(2)
    players = game.max_players
    state = game.new_game(players, {"teams": True} if key == "flippers" else {}, 2)
    with using(language):
        more = _(ALT_MORE.strip())
        while True:
            texts = [PUBLIC[key](game.view(state, None), LONGEST[:players])]
            texts += [PRIVATE[key](game.view(state, s), LONGEST[:players]) for s in range(players) if key in PRIVATE]
            for text in texts:
                assert len(text) <= ALT_LIMIT and not text.endswith((more, "…")), text
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


def test_a_late_six_player_table_too_big_to_list_gives_every_score_and_says_where_the_cards_are() -> None:
    game = get("flippers")
    state = late_table(6, 3, teams=True)
    view = game.view(state, None)
    text = flippers.alt_text_table(view, LONGEST)
    _whole(text)
    assert "the play menus say what each open cell touches and each facing aims at" in text
    for seat in view["seats"]:
        assert f"{LONGEST[seat['seat']]} ({seat['short']})" in text
    assert text.count("Team ") == 2
    assert all(f"{c['name']} {c['cell']}" in text for c in view["cards"] if c["kind"] == "food")


def test_a_small_table_still_lists_every_card_in_full() -> None:
    game = get("flippers")
    view = game.view(late_table(3, 3), None)
    text = flippers.alt_text_table(view, ["Ana", "Bob", "Cy"])
    _whole(text)
    assert all(c["cell"] in text for c in view["cards"])


def test_a_tank_table_too_long_for_the_scoring_key_says_where_it_is() -> None:
    game = get("tank")
    rng = random.Random(4)
    state = game.new_game(5, {}, 4)
    text = tank.alt_text_table(game.view(state, None), LONGEST)
    _whole(text)
    assert "Scoring:" not in text and "How each card scores: /game rules game:10 Gallon Tank." in text
    seat = game.to_act(state)[0]
    game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    short = tank.alt_text_table(game.view(state, None), ["Ana", "Bo"])
    assert "Scoring:" in short or "/game rules game:10 Gallon Tank" in short


def test_a_crowded_final_flippers_table_names_each_players_species_before_using_it() -> None:
    game = get("flippers")
    rng = random.Random(9)
    state = game.new_game(6, {}, 9)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    view = game.view(state, None)
    text = flippers.alt_text_table(view, LONGEST)
    _whole(text)
    for seat in view["seats"]:
        assert f"{LONGEST[seat['seat']]} ({seat['short']})" in text


def test_a_fish_player_without_penguins_is_said_plainly() -> None:
    game = get("fish")
    view = game.view(game.new_game(2, {}, 1), None)
    text = fish.alt_text(view, ["Ana", "Bo"])
    assert "Ana (orange A): 0 fish, 0 tiles, no penguin on the board." in text and "on none" not in text
