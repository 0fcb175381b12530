"""Check saving and loading: JSON round trips and refusal of malformed saves."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.base import CorruptState
from engine.flippers import GAME
from engine.flippers.cards import FOOD_IDS, team_cards
from engine.flippers.game import open_cells
from engine.flippers.table import label
from tests.engine.flippers.helpers import new_started, play


def saved() -> dict[str, Any]:
    """Return the dump of a game a few moves in."""
    state = new_started(3, seed=5)
    play(state, state.hands[state.current][0], label(open_cells(state)[0]), "E")
    return GAME.dump(state)


def test_round_trip_through_json_is_exact() -> None:
    data = saved()
    assert data["schema"] == GAME.schema_version
    again = GAME.load(json.loads(json.dumps(data)))
    assert GAME.dump(again) == data
    assert GAME.view(again, 1) == GAME.view(GAME.load(data), 1)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Return a mutation setting `key`."""
    return lambda d: d.__setitem__(key, value)


def _dup_card(d: dict[str, Any]) -> None:
    """Put a table card in a hand too."""
    d["hands"][0].append(d["table"][0]["card"])


def _same_cell(d: dict[str, Any]) -> None:
    """Put two table cards on one cell."""
    d["table"][1]["cell"] = list(d["table"][0]["cell"])


def _lose_card(d: dict[str, Any]) -> None:
    """Drop a card from the game."""
    d["decks"][1].pop()


def _last_play(d: dict[str, Any]) -> dict[str, Any]:
    """Return the one seat's latest play the saved game records."""
    return next(entry for entry in d["last_plays"] if entry is not None)


def _other_teams_card(d: dict[str, Any]) -> None:
    """Record a seat's latest play as a card of the next seat's team."""
    seat = next(s for s, entry in enumerate(d["last_plays"]) if entry is not None)
    _last_play(d)["card"] = team_cards((seat + 1) % d["players"])[1]


def _two_on_a_cell(rows: list[list[Any]]) -> None:
    """Put a Food card that is not on a recorded table onto the cell of that table's first card."""
    spare = next(f for f in FOOD_IDS if f not in {row[0] for row in rows})
    rows.append([spare, rows[0][1], rows[0][2], "N", "A"])


def _wrong_owner(d: dict[str, Any]) -> None:
    """Move a card into another seat's deck."""
    d["decks"][0].append(d["decks"][1].pop())


MUTATIONS: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("schema", _set("schema", 99)),
    ("players", _set("players", 9)),
    ("players type", _set("players", "3")),
    ("teams with 3", _set("teams_mode", True)),
    ("phase", _set("phase", "lunch")),
    ("table", _set("table", {})),
    ("facing", lambda d: d["table"][0].__setitem__("facing", "NE")),
    ("face", lambda d: d["table"][0].__setitem__("face", "sideways")),
    ("cell", lambda d: d["table"][0].__setitem__("cell", [1])),
    ("unknown card", lambda d: d["table"][0].__setitem__("card", "x-ray")),
    ("dup card", _dup_card),
    ("same cell", _same_cell),
    ("lost card", _lose_card),
    ("wrong owner", _wrong_owner),
    ("negative stash", lambda d: d["stash"].__setitem__(0, -1)),
    ("points not conserved", lambda d: d["stash"].__setitem__(0, 50)),
    ("hands short", lambda d: d["hands"].pop()),
    ("chosen", _set("chosen", [1, 1, 1])),
    ("current", _set("current", 3)),
    ("played", _set("played", "c-bump")),
    ("last card off the table", _set("last_card", "c-bump")),
    ("activated", _set("activated", "c-bump")),
    ("missing key", lambda d: d.pop("supply")),
    ("engaged without card", _set("engaged", [True, True, True])),
    ("first", _set("first", 3)),
    ("last plays short", lambda d: d["last_plays"].pop()),
    ("last play of another team's card", _other_teams_card),
    (
        "last play's card already down",
        lambda d: _last_play(d)["table"].append([_last_play(d)["card"], 99, 99, "N", "up"]),
    ),
    ("last play on no table", lambda d: _last_play(d).__setitem__("table", [])),
    ("last play, two cards on a cell", lambda d: _two_on_a_cell(_last_play(d)["table"])),
    ("last play points not conserved", lambda d: _last_play(d)["stash"].__setitem__(0, 60)),
    ("last play hand size", lambda d: _last_play(d).__setitem__("held", 0)),
    ("leader missing in play", lambda d: d.__setitem__("table", [e for e in d["table"] if e["card"] != "c-leader"])),
]


@pytest.mark.parametrize(("name", "mutate"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_malformed_saves_raise_corrupt_state(name: str, mutate: Callable[[dict[str, Any]], None]) -> None:
    data = copy.deepcopy(saved())
    mutate(data)
    with pytest.raises(CorruptState):
        GAME.load(data)


@pytest.mark.parametrize("data", [None, [], "state", 3])
def test_non_objects_raise_corrupt_state(data: Any) -> None:
    with pytest.raises(CorruptState):
        GAME.load(data)


def test_the_card_last_put_on_the_table_outlasts_its_turn_and_its_save() -> None:
    state = new_started(3, seed=5)
    leaders = {c["id"] for c in GAME.view(state, None)["cards"] if c["kind"] != "food"}
    assert state.last_card in leaders, "the last Leader placed is the last card put on the table"
    card, seat = state.hands[state.current][0], state.current
    play(state, card, label(open_cells(state)[0]), "E")
    while state.played is not None and state.current == seat:  # activate the rest until the turn passes
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    view = GAME.view(state, None)
    assert view["played"] is None and view["last_card"] == card
    assert GAME.load(json.loads(json.dumps(GAME.dump(state)))).last_card == card
    old = GAME.dump(state)
    del old["last_card"]
    assert GAME.load(old).last_card is None, "a save from before the field loads with no card named"

