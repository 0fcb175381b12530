"""Event lines, status lines and the rules text read well and never name a held card."""

from __future__ import annotations

import random

from engine.base import Event
from engine.tank import GAME
from engine.tank.cards import CARDS
from tests.engine.tank.helpers import cards_of, finish_splits, give, place, play

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def test_event_lines() -> None:
    assert GAME.describe(Event("split", 0, {"group": "B", "line": "h2", "new": "C"}), NAMES) == (
        "Ana split group 2 along h2 (new group 3)."
    )
    assert GAME.describe(Event("take", 1, {"group": "C", "count": 4, "discards": 0}), NAMES) == (
        "Bo took group 3 (4 cards)."
    )
    assert GAME.describe(Event("discard", 0, {"count": 1}), NAMES) == "Ana discarded 1 card."
    assert GAME.describe(Event("leftover", None, {"group": "E", "count": 2}), NAMES) == (
        "Group 5 (2 cards) was left over and discarded."
    )
    assert GAME.describe(Event("round_start", 2, {"round": 2, "rounds": 3, "start": 2}), NAMES) == (
        "Round 2 of 3 · Cy is the start player."
    )
    assert GAME.describe(Event("resign", 1, {}), NAMES) == "Bo resigned."
    resigned = {"winners": [0], "totals": [5, 3], "reason": "resigned"}
    assert GAME.describe(Event("game_over", None, resigned), NAMES) == (
        "Too few players are left after a resignation. Game over: Ana wins with 5 points."
    )


def test_private_events_stay_silent_and_public_lines_never_name_a_held_card() -> None:
    state = GAME.new_game(3, {}, 5)
    lines: list[str] = []
    play(state, random.Random(5), lambda *step: lines.extend(GAME.describe(e, NAMES) for e in step[3]))
    names = {c.name for c in CARDS.values()} | {c.id for c in CARDS.values()}
    assert lines and not any(n in line for line in lines for n in names)
    assert GAME.describe(Event("took", 0, {"cards": ["molly-7"]}, private_to=0), NAMES) == ""


def test_game_over_line_names_winners_and_shared_victory() -> None:
    assert GAME.describe(Event("game_over", None, {"winners": [1], "totals": [30, 41]}), NAMES) == (
        "Game over: Bo wins with 41 points."
    )
    assert GAME.describe(Event("game_over", None, {"winners": [0, 2], "totals": [40, 3, 40]}), NAMES) == (
        "Game over: Ana and Cy share the victory with 40 points."
    )


def test_status_lines_follow_the_game() -> None:
    state = GAME.new_game(4, {}, 3)
    first = NAMES[state.first_start]
    assert GAME.status(state, NAMES) == f"Round 1 of 4 · Split phase · {first} splits a group"
    finish_splits(state)
    assert GAME.status(state, NAMES) == f"Round 1 of 4 · Take phase · {first} takes a group"
    seat = GAME.to_act(state)[0]
    give(state, seat, ["molly-7"])
    group = sorted(state.groups)[0]
    r0, c0, _, _ = state.groups[group]
    place(state, r0 * 4 + c0, cards_of("gourami")[0])
    GAME.apply(state, seat, {"type": "take", "group": group})
    assert "may discard up to 1 fish card (Gourami)" in GAME.status(state, NAMES)
    told = "choose privately, in the menu sent by DM (with closed DMs: `/game hand`)"
    assert GAME.status(state, NAMES).endswith(told)
    unnamed = GAME.status(state, [])
    assert f"Seat {seat + 1} may discard" in unnamed


def test_status_after_the_end_names_the_winner() -> None:
    state = GAME.new_game(2, {}, 3)
    GAME.resign(state, 0)
    assert GAME.status(state, NAMES).startswith("Game over · Bo wins with")


def test_rules_text_states_each_ruling() -> None:
    text = GAME.rules_text()
    phrases = [
        "3x3",
        "36 / 49 / 67 / 85",
        "1, 2, 2, 3, 3, 4, 5",
        "Community Tank",
        "Big School",
        "Full Tank",
        "Treasure Chest cannot be",
        "Gouramis of that same take",
        "next distinct count",
        "share the victory",
        "resigns",
        "reverse order",
        "next unused number",
    ]
    for phrase in phrases:
        assert phrase in text, phrase
