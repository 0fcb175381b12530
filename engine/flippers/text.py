"""Put Flippers events, status and rules into words for players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Event
from engine.flippers.cards import (
    CARDS,
    FOOD,
    HAND_SIZE,
    TEAMS,
)
from engine.flippers.powers import available
from engine.flippers.scoring import outcome, side_totals
from engine.flippers.state import LEADERS, OVER, SETUP, FlippersState
from engine.flippers.table import WORDS, label

_LIFTED = {
    "face_down": "its Block card is face down",
    "no_target": "its Block card no longer aimed at a card",
    "blocked": "an opponent's marker sits on its Block card",
    "mutual": "two Block cards were blocking each other",
}


def _who(names: Sequence[str], seat: int | None) -> str:
    """Return a seat's player name."""
    if seat is None:
        return "Someone"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _card(cid: str | None, names: Sequence[str]) -> str:
    """Return how a table card is called in messages: "Bob's Flip" or a Food card's name."""
    if cid is None:
        return "nothing"
    card = CARDS[cid]
    return card.name if card.kind == FOOD else f"{_who(names, card.team)}'s {card.power_name}"


def _points(n: int) -> str:
    """Return "1 point" or "n points"."""
    return f"{n} point{'s' if n != 1 else ''}"


def _power_line(kind: str, who: str, d: dict[str, Any], names: Sequence[str]) -> str:
    """Return the line for one power's effect."""
    me = f"{who}'s {CARDS[d['card']].power_name} at {d['cell']}"
    target = _card(d.get("target"), names)
    if kind == "flip":
        side = f"to side {d['face']}" if CARDS[d["target"]].kind == FOOD else f"face {d['face']}"
        return f"{me} flipped {target} at {d['target_cell']} {side}, now facing {WORDS[d['now']]}."
    if kind == "bump":
        count = d["count"]
        return f"{me} pushed {count} card{'s' if count > 1 else ''} {WORDS[d['direction']]} from {d['from']}."
    if kind == "switch":
        left, right = d["left_card"], d["right_card"]
        if left and right:
            return f"{me} swapped {_card(left, names)} ({d['left']}) and {_card(right, names)} ({d['right']})."
        src, dst = (d["left"], d["right"]) if left else (d["right"], d["left"])
        return f"{me} moved {_card(left or right, names)} from {src} to {dst}."
    if kind == "replace":
        return f"{me} swapped places with {target} at {d['target_cell']}."
    if kind == "turn":
        return f"{me} turned {target} at {d['target_cell']} to face {WORDS[d['now']]}."
    if kind == "plus":
        if d["amount"] == 0:
            return f"{me} aimed at {target}, but the supply is empty."
        return f"{me} gave {_who(names, d['team'])} {_points(d['amount'])} from the supply."
    if kind == "minus":
        if d["amount"] == 0:
            return f"{me} aimed at {target}, but {_who(names, d['team'])} has no points to lose."
        return f"{me} sent {_points(d['amount'])} from {_who(names, d['team'])} back to the supply."
    if kind == "block":
        if d["target"] is None:
            return f"{me} put its marker on the empty cell {d['target_cell']}: a card that enters it is blocked."
        return f"{me} put its marker on {target} at {d['target_cell']}."
    reasons = {
        "blocked": "is under a Block marker: its power does not act",
        "empty": "had nothing to target",
        "food": f"has no effect on {target}",
        "face_down": f"has no effect on the face-down {target}",
    }
    return f"{me} {reasons[d['reason']]}."


def describe(event: Event, names: Sequence[str]) -> str:
    """Return a one-line summary of a public event; private events and bookkeeping stay silent."""
    if event.private_to is not None:
        return ""
    kind, d, who = event.kind, event.data, _who(names, event.seat)
    if kind in ("flip", "bump", "switch", "replace", "turn", "plus", "minus", "block", "fizzle"):
        return _power_line(kind, who, d, names)
    if kind == "leader":
        return f"{who} placed their Leader at {d['cell']} facing {_card(d['food'], names)}."
    if kind == "leader_turn":
        return f"{who} to place their Leader."
    if kind == "discards_open":
        count = d["count"]
        return f"Leaders placed: everyone now privately discards {count} card{'s' if count > 1 else ''}."
    if kind == "auto_discard":
        return (
            f"Leaders placed. With {d['players']} players every seat discards all {d['count']} cards it drew:"
            f" done automatically."
        )
    if kind == "auto":
        card = CARDS[d["card"]]
        if d.get("why") == "any_order":
            return (
                f"{who}'s {card.power_name} at {d['cell']} acted by itself: "
                "every order of the cards left ends the same."
            )
        return f"{who}'s {card.power_name} at {d['cell']} was the only card left to activate: it acted by itself."
    if kind == "played":
        return f"{who} played {CARDS[d['card']].power_name} at {d['cell']} facing {WORDS[d['facing']]}."
    if kind == "chose":
        return f"{who} has chosen their discards."
    if kind == "setup_done":
        return f"Setup done: every hand holds {HAND_SIZE} cards."
    if kind == "turn_start":
        return f"Turn {d['turn']}: {who} to play."
    if kind == "lifted":
        return f"{who}'s Block marker was lifted: {_LIFTED[d['reason']]}."
    if kind == "resigned":
        return f"{who} resigned: their hand and deck leave the game, their cards on the table stay."
    if kind == "award":
        if d["kind"] == "leader":
            return f"{who}'s Leader at {d['cell']} faces {_card(d['food'], names)}: +{_points(d['points'])}."
        return (
            f"{_card(d['food'], names)} gives {who} {_points(d['points'])} "
            f"({WORDS[d['direction']]} arrow onto {_card(d['target'], names)} at {d['cell']})."
        )
    if kind == "game_over":
        why = "Too few players are left after a resignation. " if d.get("reason") == "resigned" else ""
        if d.get("teams"):
            sides = {int(side): points for side, points in d["sides"].items()}
            return why + "Game over: " + _team_result(d["winners"], sides, d["tiebreak"], len(d["scores"]), names)
        return why + "Game over: " + _result(d["winners"], [row["total"] for row in d["scores"]], d["tiebreak"], names)
    return ""


def team_name(seats: Sequence[int]) -> str:
    """Return a Team Up side's one name, used everywhere: its species joined, "Team Chinstrap & Emperor"."""
    return "Team " + " & ".join(TEAMS[s]["short"] for s in seats)


def _team_result(winners: list[int], sides: dict[int, int], tiebreak: str, players: int, names: Sequence[str]) -> str:
    """Return which Team Up side won, its members and their combined points."""
    won = sorted({seat % 2 for seat in winners})
    if not won:
        return "nobody wins."
    teams = [f"{team_name(range(side, players, 2))} ({sides[side]} points together)" for side in won]
    verb = "wins" if len(teams) == 1 else "share the win"
    return f"{' and '.join(teams)} {verb}. {tiebreak}".strip()


def _result(winners: list[int], totals: list[int], tiebreak: str, names: Sequence[str]) -> str:
    """Return who won and with how many points."""
    if not winners:
        return "nobody wins."
    listed = ", ".join(f"{_who(names, s)} ({totals[s]})" for s in winners)
    verb = "wins" if len(winners) == 1 else "win"
    return f"{listed} {verb}. {tiebreak}".strip()


def status(state: FlippersState, names: Sequence[str], to_act: list[int]) -> str:
    """Return one line saying what the game waits for."""
    if state.phase == SETUP:
        return f"Setup: waiting for {', '.join(_who(names, s) for s in to_act)} to choose their discards."
    if state.phase == LEADERS:
        return (
            f"Leaders: {_who(names, state.current)} places their Leader beside a Food card, facing it"
            f" ({_who(names, state.first)} plays first, drawn at random)."
        )
    if state.phase == OVER:
        result = outcome(state)
        if state.teams_mode:
            return "Game over: " + _team_result(
                result.winners, side_totals(state), result.tiebreak, state.players, names
            )
        totals = [s.score for s in sorted(result.standings, key=lambda s: s.seat)]
        return "Game over: " + _result(result.winners, totals, result.tiebreak, names)
    who = _who(names, state.current)
    if state.played is None:
        return f"Turn {state.turn}: {who} to play."
    left = ", ".join(f"{CARDS[c].power_name} ({label(state.where[c])})" for c in available(state, state.current))
    return f"Turn {state.turn}: {who} activates {left}."
