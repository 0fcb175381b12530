"""Check which actions may be taken back: never one that showed a player something they had not seen."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from ai import bots
from engine.base import Event, IllegalAction
from engine.registry import get
from engine.replay import replay
from engine.takeback import TAKEBACK, describe_takeback, effective_log, refusal, takeback_event

TABLES = [
    ("fish", 2, {}),
    ("fish", 4, {}),
    ("tank", 3, {}),
    ("tank", 5, {}),
    ("flippers", 3, {}),
    ("flippers", 4, {"teams": True}),
    ("flippers", 6, {"teams": True}),
]
WORLDS = 3
"""Positions sampled per observer and action: each one the observer cannot tell from the real one."""


@pytest.mark.parametrize(("kind", "players", "options"), TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_action_that_may_be_taken_back_showed_anyone_anything_new(
    kind: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Replay the action in positions each observer cannot tell apart: an action that may be taken back looks the same.

    If some world consistent with what a player saw before the action would look different to them after it,
    the action showed them something new (a card drawn, a new deal): then the engine must refuse its takeback.
    """
    game, ai, rng = get(kind), bots()[kind], random.Random(seed)
    state = game.new_game(players, options, seed)
    allowed = refused = 0
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        seen = [game.view(state, observer) for observer in range(players)]
        events = game.apply(state, seat, action)
        if refusal(kind, seat, action, events) is not None:
            refused += 1
            continue
        allowed += 1
        for observer in range(players):
            now = game.view(state, observer)
            for _ in range(WORLDS):
                world = ai.determinize(seen[observer], observer, rng)
                assert game.view(world, observer) == seen[observer]
                try:
                    game.apply(world, seat, copy.deepcopy(action))
                except IllegalAction:
                    continue  # the action itself was private to its player (a face-down discard)
                assert game.view(world, observer) == now, (
                    f"{kind}: {action} by seat {seat} showed seat {observer} something new, yet may be taken back"
                )
    assert allowed > 0 and (refused > 0 or not game.hidden_information)


@pytest.mark.parametrize(("kind", "players", "options"), TABLES)
def test_a_takeback_shows_every_player_exactly_what_they_saw_before_the_move(
    kind: str, players: int, options: dict[str, Any]
) -> None:
    """Replaying the log without a move that may be taken back restores every seat's view before it."""
    game, rng = get(kind), random.Random(7)
    state = game.new_game(players, options, 7)
    log: list[dict[str, Any]] = []
    checked = 0
    while not game.is_over(state) and checked < 15:
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        seen = [game.view(state, observer) for observer in range(players)]
        events = game.apply(state, seat, action)
        log.append({"version": len(log) + 2, "seat": seat, "action": action, "events": [e.to_json() for e in events]})
        if refusal(kind, seat, action, events) is not None:
            continue
        undo = {"type": TAKEBACK, "undo": [len(log) + 1]}
        taken_back = [*log, {"version": len(log) + 2, "seat": seat, "action": undo}]
        *_, restored = replay(game, players, options, 7, taken_back)
        assert [game.view(restored, observer) for observer in range(players)] == seen
        log = taken_back
        state = restored
        checked += 1
    assert checked > 0


def test_resignations_takebacks_and_endings_are_never_taken_back() -> None:
    assert refusal("fish", 0, {"type": "resign"}, []) == "a resignation cannot be taken back"
    assert refusal("fish", 0, {"type": TAKEBACK, "undo": [3]}, []) is not None
    assert refusal("tank", 1, {"type": "keep"}, [Event("game_over", None, {})]) is not None
    assert refusal("flippers", 1, {"type": "activate", "card": "x"}, [Event("drew", 1, {}, private_to=1)]) is not None
    assert refusal("tank", 1, {"type": "take", "group": "A"}, [Event("took", 1, {}, private_to=1)]) is None


def test_the_effective_log_leaves_out_takebacks_and_what_they_undid() -> None:
    log = [
        {"version": 2, "seat": 0, "action": {"type": "a"}},
        {"version": 3, "seat": 1, "action": {"type": "b"}},
        {"version": 4, "seat": 1, "action": {"type": TAKEBACK, "undo": [3]}},
        {"version": 5, "seat": 1, "action": {"type": "c"}},
    ]
    assert [e["version"] for e in effective_log(log)] == [2, 5]


def test_a_takeback_reads_as_who_took_back_what_and_who_agreed() -> None:
    event = takeback_event(0, [5], ["Ana moved A1→B2 and took a 2-fish tile."], [1, 2])
    text = describe_takeback(event, ["Ana", "Bo", "Cy"])
    assert text == "Ana took back: Ana moved A1→B2 and took a 2-fish tile. Agreed by Bo and Cy."
    alone = describe_takeback(takeback_event(0, [5, 6], [], []), ["Ana", "Bot 1 (hard)"])
    assert alone == "Ana took back: 2 moves. Only computer players were asked, and they agreed."


def test_a_computer_reply_that_played_a_card_from_its_hand_is_never_taken_back() -> None:
    played = [Event("played", 1, {"card": "m-flip", "cell": "M10", "facing": "W"})]
    why = refusal("flippers", 1, {"type": "play", "card": "m-flip"}, played, asker=0)
    assert why == "a computer player has since played a card from its hand, which everyone has now seen"
    assert refusal("flippers", 0, {"type": "play", "card": "m-flip"}, [Event("played", 0, {})], asker=0) is None
