"""Word 10 Gallon Tank for players: event lines, status lines and the rules with the rulings applied."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.base import Event, Outcome
from engine.tank.cards import kinds_in_play
from engine.tank.data import RULES, CardKind
from engine.tank.grid import label

if TYPE_CHECKING:
    from engine.tank.state import TankState


def name_of(names: Sequence[str], seat: int | None) -> str:
    """Return a seat's display name, or "Seat N" when none is known."""
    if seat is None:
        return "Someone"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def plural(n: int, word: str) -> str:
    """Return "1 card" / "3 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def join_names(parts: Sequence[str]) -> str:
    """Return "Ana", "Ana and Bo" or "Ana, Bo and Cy"."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def describe(event: Event, names: Sequence[str]) -> str:
    """Return one sentence about a public event, never naming a held card; private events stay silent."""
    line = _event_line(event, names)
    return f"{line}." if line and not line.endswith(".") else line


def _event_line(event: Event, names: Sequence[str]) -> str:
    """Return the words of one public event's line, without its full stop."""
    if event.private_to is not None:
        return ""
    who = name_of(names, event.seat)
    data = event.data
    match event.kind:
        case "round_start":
            start = name_of(names, data["start"])
            return f"Round {data['round']} of {data['rounds']} · {start} is the start player"
        case "split":
            return f"{who} split group {label(data['group'])} along {data['line']} (new group {label(data['new'])})"
        case "take":
            return f"{who} took group {label(data['group'])} ({plural(data['count'], 'card')})"
        case "discard":
            return f"{who} discarded {plural(data['count'], 'card')}"
        case "keep":
            return f"{who} kept their fish"
        case "leftover":
            return f"Group {label(data['group'])} ({plural(data['count'], 'card')}) was left over and discarded"
        case "resign":
            return f"{who} resigned"
        case "game_over":
            winners = data["winners"]
            best = data["totals"][winners[0]] if winners else 0
            why = "Too few players are left after a resignation. " if data.get("reason") == "resigned" else ""
            return why + "Game over: " + _winners_phrase(winners, best, names)
    return ""


def _winners_phrase(winners: Sequence[int], best: int, names: Sequence[str]) -> str:
    """Return "Ana wins with 54 points" or "Ana and Bo share the victory with 40 points"."""
    if not winners:
        return "nobody wins"
    who = join_names([name_of(names, s) for s in winners])
    verb = "wins" if len(winners) == 1 else "share the victory"
    return f"{who} {verb} with {plural(best, 'point')}"


def final_line(outcome: Outcome, names: Sequence[str]) -> str:
    """Return the status line of a finished game."""
    best = max((s.score for s in outcome.standings if s.winner), default=0)
    return "Game over · " + _winners_phrase(outcome.winners, best, names)


def status_line(state: TankState, seat: int, names: Sequence[str]) -> str:
    """Return "Round 2 of 4 · Split phase · Ana splits a group" and the like."""
    head = f"Round {state.round} of {state.setup.rounds}"
    who = name_of(names, seat)
    if state.phase == "split":
        return f"{head} · Split phase · {who} splits a group"
    if state.phase == "take":
        return f"{head} · Take phase · {who} takes a group"
    left = state.pending.left if state.pending is not None else 0
    return (
        f"{head} · Take phase · {who} may discard up to {plural(left, 'fish card')} (Gourami) or keep them all: "
        "choose privately, in the menu sent by DM or with `/game hand`"
    )


def range_text(values: dict[int, int]) -> str:
    """Return "2 players: 4, 3 players: 3, ..." from a per-player-count table."""
    return ", ".join(f"{n} players: {v}" for n, v in sorted(values.items()))


_PLACES = ("most", "second most", "third most", "fourth most")


def kind_scoring(kind: CardKind) -> str:
    """Return how one card kind scores, in a few words read from data, e.g. "9 per set of 3"."""
    rule = kind.scoring
    match rule["kind"]:
        case "printed":
            return "the value printed on each"
        case "each" if kind.is_fish:
            extra = f", lets you discard up to {kind.discards} other fish" if kind.discards else ""
            return f"{rule['points']} each{extra}"
        case "each":
            return f"{rule['points']}, not a fish"
        case "majority":
            ranks = ", ".join(f"{_PLACES[i]} {pts}" for i, pts in enumerate(rule["ranks"]))
            return f"{ranks} (compared at the end)"
        case "parity":
            return f"odd count {rule['odd_each']} each, even count {rule['even_each']} each"
        case "sets":
            return f"{rule['points']} per set of {rule['size']}"
        case "table":
            table = rule["table"]
            last = len(table) - 1
            counts = [*map(str, range(1, last)), f"{last}+"]
            return f"{', '.join(map(str, table[1:]))} for {', '.join(counts)} cards"
    raise ValueError(f"{kind.key}: unknown scoring kind {rule['kind']!r}")


def scoring_reminders(players: int) -> list[dict[str, str]]:
    """Return one {key, name, text} per fish type in play and the chest, saying how it scores."""
    present = set(kinds_in_play(players))
    return [
        {"key": k.key, "name": k.name, "text": kind_scoring(k)}
        for k in RULES.kinds
        if k.key in present or not k.is_fish
    ]
