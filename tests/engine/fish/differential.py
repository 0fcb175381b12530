"""Play seeded random games through the bitmask engine and the reference engine side by side, move by move."""

from __future__ import annotations

import random
from typing import Any

from engine.base import IllegalAction
from engine.fish import GAME
from engine.fish.board import layout
from tests.engine.fish.reference import FishGame as ReferenceGame

REFERENCE = ReferenceGame()
LABELS = layout().labels


def _saved(data: dict[str, Any]) -> dict[str, Any]:
    """Return a save without what only the new engine records (move count, stranded marks, schema)."""
    data = {k: v for k, v in data.items() if k not in ("schema", "moves")}
    if data["last"] is not None:
        data["last"] = {k: v for k, v in data["last"].items() if k != "stranded"}
    return data


def _event(event: Any) -> dict[str, Any]:
    """Return an event as JSON without the turn number only the new engine adds to moves."""
    data = event.to_json()
    data["data"] = {k: v for k, v in data["data"].items() if k != "turn"}
    return data


def _attempt(game: Any, state: Any, seat: int, action: dict[str, Any]) -> tuple[str, Any]:
    """Apply an action and return ("ok", events) or ("refused", message)."""
    try:
        return "ok", [_event(e) for e in game.apply(state, seat, action)]
    except IllegalAction as exc:
        return "refused", str(exc)


def _nonsense(rng: random.Random, seat_count: int) -> tuple[int, dict[str, Any]]:
    """Return a random action that is usually illegal: any seat, any tiles, sometimes not even a tile."""
    labels = [*LABELS, "Z9", " b3 ", "", 7]
    kind = rng.choice(["move", "place", "jump"])
    action = {"type": kind, "from": rng.choice(labels), "to": rng.choice(labels), "tile": rng.choice(labels)}
    return rng.randrange(seat_count), action


def play_both(seed: int) -> int:
    """Play one seeded game on both engines, asserting they agree at every step; return the steps played."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    options = {"balanced": seed % 7 == 0}
    new, old = GAME.new_game(players, options, seed), REFERENCE.new_game(players, options, seed)
    steps = 0
    while True:
        assert GAME.is_over(new) == REFERENCE.is_over(old), f"seed {seed} step {steps}: one engine ended the game"
        assert _saved(GAME.dump(new)) == _saved(REFERENCE.dump(old)), f"seed {seed} step {steps}: states differ"
        if GAME.is_over(new):
            break
        assert GAME.to_act(new) == REFERENCE.to_act(old), f"seed {seed} step {steps}: turn order differs"
        seat = GAME.to_act(new)[0]
        other = (seat + 1 + steps % (players - 1)) % players
        assert GAME.legal_actions(new, other) == REFERENCE.legal_actions(old, other) == []
        legal = GAME.legal_actions(new, seat)
        assert legal == REFERENCE.legal_actions(old, seat), f"seed {seed} step {steps}: legal actions differ"
        roll = rng.random()
        if roll < 0.01:
            victim = rng.randrange(players)
            if new.resigned[victim]:
                continue
            events = [_event(e) for e in GAME.resign(new, victim)]
            assert events == [_event(e) for e in REFERENCE.resign(old, victim)], f"seed {seed}: resign differs"
        elif roll < 0.2:
            who, action = _nonsense(rng, players)
            result = _attempt(GAME, new, who, action)
            assert result == _attempt(REFERENCE, old, who, action), f"seed {seed} step {steps}: {action} differs"
        else:
            action = rng.choice(legal)
            events = _attempt(GAME, new, seat, action)
            assert events == _attempt(REFERENCE, old, seat, action), f"seed {seed} step {steps}: {action} differs"
            stranded = [e["data"]["tile"] for e in events[1] if e["kind"] == "stranded"]
            marked = [p["tile"] for p in (new.last or {}).get("stranded", [])]
            assert marked == stranded, f"seed {seed} step {steps}: stranded penguins not marked for the board"
        steps += 1
    mine, theirs = GAME.outcome(new), REFERENCE.outcome(old)
    assert mine.standings == theirs.standings, f"seed {seed}: standings differ"
    assert bool(mine.tiebreak) == bool(theirs.tiebreak), f"seed {seed}: only one engine saw a tie"
    return steps
