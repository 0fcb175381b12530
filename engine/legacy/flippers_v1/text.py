"""Put Flippers events, status and rules into words for players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Event
from engine.legacy.flippers_v1.cards import (
    CARDS,
    DATA,
    FOOD,
    HAND_SIZE,
    LEADER_BONUS,
    MINUS_POINTS,
    PLUS_POINTS,
    POWER_NAMES,
    SETUP_DRAW,
    STARTING_STASH,
    SUPPLY_TOTAL,
    TEAM_UP_PLAYERS,
)
from engine.legacy.flippers_v1.powers import available
from engine.legacy.flippers_v1.scoring import outcome
from engine.legacy.flippers_v1.state import OVER, SETUP, FlippersState
from engine.legacy.flippers_v1.table import WORDS, label

_LIFTED = {
    "face_down": "its Block card is face down",
    "no_target": "its Block card no longer aims at a card",
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
        return f"{me} put its marker on {target} at {d['target_cell']}."
    reasons = {
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
        return "Game over: " + _result(d["winners"], [row["total"] for row in d["scores"]], d["tiebreak"], names)
    return ""


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
    if state.phase == OVER:
        result = outcome(state)
        totals = [s.score for s in sorted(result.standings, key=lambda s: s.seat)]
        together = " (partners' points added)" if state.teams_mode else ""
        return "Game over: " + _result(result.winners, totals, result.tiebreak, names) + together
    who = _who(names, state.current)
    if state.played is None:
        return f"Turn {state.turn}: {who} plays a card."
    left = ", ".join(f"{CARDS[c].power_name} ({label(state.where[c])})" for c in available(state, state.current))
    return f"Turn {state.turn}: {who} activates {left}."


def rules_text() -> str:
    """Return the rules in brief and every ruling the bot applies, within Discord's 2000 characters."""
    per_count = ", ".join(f"{n}p: {row['discard']}/{row['food_cards']}" for n, row in DATA["by_players"].items())
    partners = " or ".join(map(str, TEAM_UP_PLAYERS))
    lines = [
        "**Flippers**: score food points by moving, flipping and blocking cards.",
        f"Each seat plays a team of {len(POWER_NAMES)}: {', '.join(POWER_NAMES.values())}."
        f" Start with {STARTING_STASH} points; draw {SETUP_DRAW}, privately discard some"
        f" (discards/Food cards: {per_count}); hands fill to {HAND_SIZE}.",
        "Turn: play a card face up beside a card, facing any way; its power acts; then each of your"
        f" other face-up cards acts once, in your order; draw to {HAND_SIZE}.",
        "When every card is played, Food arrows pay the face-up Explorers they point at. Most points wins.",
        "**Rulings**",
        "- Unbounded grid; cells are column + row; west of A: -A, -B. Seat 1 plays first.",
        "- Food cards: random, random side, facing N, in a row; Leaders below in seat order facing N.",
        "- Cards aim where their arrow points; Switch aims left and right.",
        "- Flip turns the target over toward the arrow, mirroring its direction; Food shows its other side.",
        "- Bump pushes the unbroken line from its target one cell on; cards past a gap stay.",
        "- Switch swaps its targets or moves the only one into the gap. Replace swaps with its target.",
        "- Turn rotates the target a quarter clockwise; Food arrows turn with it.",
        f"- Plus: +{PLUS_POINTS} from the supply (none once empty). Minus: -{MINUS_POINTS}, never below 0."
        " Both hit only face-up Explorers.",
        "- Empty target: nothing happens. Face-down cards never act or score.",
        "- Block puts your marker on its target and it follows the Block card's aim; lifted when the Block"
        " card is face down, aims at an empty cell or sits under an opponent's marker, until it acts again.",
        "- Block cards blocking each other in a ring all lose their markers.",
        "- Markers stop only opponents: never you or your Team Up partners.",
        "- Every available card must act; then the turn ends.",
        f"- End: Food arrows and Leaders (+{LEADER_BONUS} face up aiming at Food) pay in full, even past"
        f" the {SUPPLY_TOTAL}-point supply. Ties share the victory.",
        f"- Team Up ({partners} players): alternate seats are partners; points add up.",
        "- Resigning discards your hand and deck; your table cards stay; you cannot win.",
    ]
    return "\n".join(lines)
