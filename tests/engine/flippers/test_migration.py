"""Check that games saved before Leader placement and the revised Block ruling load and play to the end."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine.flippers import GAME
from engine.flippers.state import OVER, PLAY, SETUP
from tests.engine.flippers.helpers import NAMES, random_action

FIXTURES = Path(__file__).parent / "fixtures"


def old_save(name: str) -> dict[str, Any]:
    """Return a save written by the schema-1 code (before this change), as stored."""
    return json.loads((FIXTURES / name).read_text())


def finish(state: Any, seed: int) -> list[str]:
    """Play random legal actions to the end; return every public line."""
    rng = random.Random(seed)
    lines = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        lines += [GAME.describe(e, NAMES) for e in GAME.apply(state, seat, random_action(state, seat, rng))]
    return [line for line in lines if line]


def test_an_old_setup_save_loads_with_its_leaders_in_place_and_seat_one_first() -> None:
    data = old_save("schema1_setup.json")
    assert data["schema"] == 1 and "first" not in data
    state = GAME.load(data)
    assert state.phase == SETUP and state.first == 0
    assert GAME.dump(state)["schema"] == GAME.schema_version == 3
    assert {f"{t}-leader" for t in "cme"} <= set(state.where)
    for seat in range(3):
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.phase == PLAY and state.current == 0
    lines = finish(state, seed=1)
    assert lines[-1].startswith("Game over: ")
    assert GAME.load(json.loads(json.dumps(GAME.dump(state)))).phase == OVER


def test_an_old_team_up_save_mid_turn_plays_on_under_the_new_rules() -> None:
    data = old_save("schema1_teamup_midturn.json")
    assert data["schema"] == 1 and data["played"] == "e-turn" and data["engaged"] == [True, False, False, False]
    state = GAME.load(data)
    assert state.phase == PLAY and state.engaged == [True, False, False, False] and state.current == 2
    assert GAME.legal_actions(state, 2) == [{"type": "activate", "card": "e-flip"}]
    again = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert GAME.dump(again) == GAME.dump(state)
    lines = finish(state, seed=2)
    assert lines[-1].startswith(("Game over: Team Chinstrap & Emperor (", "Game over: Team Macaroni & Weddell ("))
    assert "points together) wins." in lines[-1] or "share the win" in lines[-1]


def test_an_old_save_whose_last_card_is_now_blocked_by_a_partner_moves_to_the_next_turn() -> None:
    data = old_save("schema1_teamup_midturn.json")
    block = next(e for e in data["table"] if e["card"] == "c-block")
    block["cell"], block["facing"] = [12, 18], "N"  # Ana's marker now on her partner Cy's Flip at M17
    state = GAME.load(data)
    assert not GAME.mid_turn(state, 2) and state.current == 3 and state.played is None
    assert len(state.hands[2]) == min(2, 1 + len(data["decks"][2]))  # drew back up as the turn ended
    assert GAME.legal_actions(state, 3)[0]["type"] == "play"


def test_a_schema_2_save_still_placing_leaders_deals_after_the_last_leader() -> None:
    data = old_save("schema2_leaders.json")
    assert data["schema"] == 2 and data["phase"] == "leaders" and all(len(h) == 3 for h in data["hands"])
    state = GAME.load(data)
    assert GAME.dump(state)["schema"] == 3
    assert state.hands == [[], [], [], []]
    assert state.decks == [hand + deck for hand, deck in zip(data["hands"], data["decks"], strict=True)]
    assert GAME.view(state, 0)["hand"] == []
    while state.phase == "leaders":
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.phase == SETUP
    assert state.hands == data["hands"], "the same cards are drawn, only later"
    assert finish(state, seed=3)[-1].startswith("Game over: ")


def test_a_schema_2_save_past_leader_placement_is_untouched() -> None:
    data = old_save("schema2_setup.json")
    state = GAME.load(data)
    dumped = GAME.dump(state)
    assert dumped.pop("seen") == [12, 15, 14, 15], "the box the table uses, for pictures that never narrow"
    assert dumped.pop("last_card") is None, "a save from before names no card put on the table last"
    assert dumped.pop("last_plays") == [None] * 4, "nor anyone's latest play"
    assert {**dumped, "schema": 2} == data
