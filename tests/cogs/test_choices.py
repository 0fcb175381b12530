"""Check that every autocomplete choice of a long game fits Discord whole in every language, shortened by priority.

Discord cuts a choice at 100 characters; a choice that does not fit leaves out its least important detail (the
owners of the cards it names, then the cards) and never loses its tail (the facing, the move).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from cogs.fish import destination_options, from_choices, place_choices, slides
from cogs.flippers.options import (
    activate_choices,
    can_play,
    card_choices,
    cell_choices,
    discard_options,
    facing_choices,
    leader_choices,
)
from cogs.flippers.words import beside_words, facing_word
from cogs.tank.options import discard_card_labels, split_groups, split_lines, take_groups
from engine.flippers.game import leader_spots, open_cells
from engine.flippers.table import label
from engine.registry import get
from i18n import LANGUAGES, using
from ui.components import autocomplete
from ui.text import LABEL

NAMES = ["W" * 32, "Bartholomew the Bold", "M" * 32, "DarkPenguin_9000_xX", "Evangelina Rosales", "Q" * 32]
"""Six players, three with the longest display name Discord allows (32 characters)."""

Choices = list[tuple[str, str]]


def _flippers(state: Any, names: list[str]) -> Choices:
    """Return every choice any seat could be offered now: discards, Leader cells, cards, cells, facings, activations."""
    choices = leader_choices(state, names)
    for seat in range(state.players):
        choices += discard_options(state, seat)
        choices += activate_choices(state, seat, names)
        if can_play(state, seat):
            choices += card_choices(state, seat) + cell_choices(state, names)
            for cid in state.hands[seat]:
                for cell in open_cells(state):
                    choices += facing_choices(state, cid, cell, names)
    return choices


def _tank(state: Any, names: list[str]) -> Choices:
    """Return every group to split or take, every cut line and every Gourami discard any seat could be offered now."""
    choices: Choices = []
    for seat in range(len(names)):
        groups = split_groups(state, seat)
        choices += groups + take_groups(state, seat) + discard_card_labels(state, seat)
        for _label, group in groups:
            choices += split_lines(state, seat, group)
    return choices


def _fish(state: Any, names: list[str]) -> Choices:
    """Return every placement, penguin to move and destination any seat could be offered now."""
    choices: Choices = []
    for seat in range(len(names)):
        starts = from_choices(state, seat)
        choices += place_choices(state, seat) + starts
        for _label, tile in starts:
            choices += [(text, value) for text, value, _why in destination_options(state, slides(state, seat, tile))]
    return choices


GAMES: dict[str, tuple[str, int, dict[str, Any], Callable[[Any, list[str]], Choices]]] = {
    "flippers": ("flippers", 6, {}, _flippers),
    "flippers team up": ("flippers", 6, {"teams": True}, _flippers),
    "tank": ("tank", 5, {}, _tank),
    "fish": ("fish", 4, {}, _fish),
}


def _every_choice(name: str, seed: int) -> dict[str, set[str]]:
    """Play a whole game at random and return every choice label offered along the way, per language."""
    key, players, options, offered = GAMES[name]
    game, rng, names = get(key), random.Random(seed), NAMES[:players]
    state = game.new_game(players, options, seed)
    labels: dict[str, set[str]] = {language: set() for language in LANGUAGES}
    while not game.is_over(state):
        for language in LANGUAGES:
            with using(language):
                choices = offered(state, names)
                shown = [choice.name for choice in autocomplete(choices, "")]  # as Discord receives the first 25
            labels[language].update(text for text, _value in choices)
            assert shown == [text for text, _value in choices][: len(shown)], "a choice was cut on its way to Discord"
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return labels


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_choice_of_a_long_game_fits_whole_in_every_language(name: str) -> None:
    labels = _every_choice(name, seed=7)
    assert all(labels.values())
    assert {language: sorted(t for t in texts if len(t) > LABEL) for language, texts in labels.items()} == {
        language: [] for language in LANGUAGES
    }
    assert [t for texts in labels.values() for t in texts if t.endswith("…")] == []


def _late_flippers() -> Any:
    """Return a six-player Flippers game played at random until an open cell touches three cards or more."""
    game, rng = get("flippers"), random.Random(11)
    state = game.new_game(6, {}, 11)
    while not game.is_over(state):
        if state.phase == "play" and any(len(beside_words(state, c, NAMES).split("(")) > 3 for c in open_cells(state)):
            return state
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    raise AssertionError("no crowded cell in the whole game")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_crowded_cell_drops_the_owners_first_then_the_cards_never_its_end(language: str) -> None:
    state = _late_flippers()
    with using(language):
        cell = max(open_cells(state), key=lambda c: len(beside_words(state, c, NAMES, room=1000)))
        full = beside_words(state, cell, NAMES, room=1000)
        unowned = beside_words(state, cell, NAMES, room=len(full) - 1)
        cells = beside_words(state, cell, NAMES, room=len(unowned) - 1)
    assert any(name in full for name in NAMES), full
    assert not any(name in unowned for name in NAMES) and len(unowned) < len(full), unowned
    assert cells.count("(") == 0 and len(cells) < len(unowned), cells
    neighbours = [text.split(")")[0] for text in full.split("(")[1:]]
    assert all(spot in unowned and spot in cells for spot in neighbours)  # every neighbour keeps its cell


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_leader_choice_keeps_its_cell_food_and_facing(language: str) -> None:
    game, rng = get("flippers"), random.Random(5)
    state, seen = game.new_game(6, {}, 5), 0
    with using(language):
        while not game.is_over(state):
            for (text, cell), (spot, facing) in zip(leader_choices(state, NAMES), leader_spots(state), strict=True):
                assert text.startswith(label(spot)) and cell == label(spot) and facing_word(facing) in text, text
                seen += 1
            seat = game.to_act(state)[0]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert seen
