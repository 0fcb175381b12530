"""Saved games round-trip through JSON, and anything malformed is refused with CorruptState."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.base import CorruptState
from engine.tank import GAME
from tests.engine.tank.helpers import finish_splits, play


def _saved(players: int = 4, seed: int = 1) -> dict[str, Any]:
    """Return the dump of a game in its take phase."""
    state = GAME.new_game(players, {}, seed)
    finish_splits(state)
    return GAME.dump(state)


def test_dump_is_json_and_carries_the_schema() -> None:
    data = _saved()
    assert data["schema"] == GAME.schema_version
    assert json.loads(json.dumps(data)) == data


def test_loaded_game_plays_on_exactly_like_the_original() -> None:
    state = GAME.new_game(3, {}, 13)
    copy_state = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    log_a = play(state, random.Random(4))
    log_b = play(copy_state, random.Random(4))
    assert [e.to_json() for e in log_a] == [e.to_json() for e in log_b]
    assert GAME.dump(state) == GAME.dump(copy_state)


def test_dump_does_not_share_lists_with_the_live_state() -> None:
    state = GAME.new_game(2, {}, 1)
    data = GAME.dump(state)
    frozen = copy.deepcopy(data)
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert data == frozen


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Return a mutation that sets one key."""
    return lambda d: d.__setitem__(key, value)


def _dup_card(d: dict[str, Any]) -> None:
    d["hands"][0].append(d["deck"][0])


def _lose_card(d: dict[str, Any]) -> None:
    d["deck"].pop()


def _unknown_card(d: dict[str, Any]) -> None:
    d["deck"][0] = "shark-1"


def _five_player_card(d: dict[str, Any]) -> None:
    d["deck"][0] = "guppy-5-1"


def _overlap(d: dict[str, Any]) -> None:
    first = next(iter(d["groups"]))
    d["groups"]["Z"] = d["groups"][first]
    d["made"] = 26


def _outside(d: dict[str, Any]) -> None:
    first = next(iter(d["groups"]))
    d["groups"][first] = [0, 0, 5, 5]


def _pending_without_phase(d: dict[str, Any]) -> None:
    d["pending"] = {"seat": 0, "left": 1, "protected": []}


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.pop(key)


@pytest.mark.parametrize(
    "corrupt",
    [
        _set("schema", 99),
        _set("players", "4"),
        _set("players", 9),
        _set("players", True),
        _set("goal", "win"),
        _set("phase", "dance"),
        _set("round", 0),
        _set("deck", "cards"),
        _set("grid", []),
        _set("hands", [[], []]),
        _set("resigned", [0, 0, 0, 0]),
        _set("queue", []),
        _set("queue", [7]),
        _set("groups", []),
        _set("pending", "yes"),
        _drop("hands"),
        _drop("first_start"),
        _dup_card,
        _lose_card,
        _unknown_card,
        _five_player_card,
        _overlap,
        _outside,
        _pending_without_phase,
    ],
)
def test_malformed_saves_raise_corrupt_state(corrupt: Callable[[dict[str, Any]], None]) -> None:
    data = _saved()
    corrupt(data)
    with pytest.raises(CorruptState):
        GAME.load(data)


@pytest.mark.parametrize("data", [None, [], "tank", 5])
def test_non_objects_raise_corrupt_state(data: Any) -> None:
    with pytest.raises(CorruptState):
        GAME.load(data)
