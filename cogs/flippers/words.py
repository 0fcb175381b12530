"""Name Flippers cards, cells and results in the words players read in menus and standings."""

from __future__ import annotations

from collections.abc import Sequence

from engine.base import Outcome, Standing
from engine.flippers.cards import CARDS, FOOD, TEAMS
from engine.flippers.state import DOWN, FlippersState
from engine.flippers.table import Cell, aims, label, neighbours
from engine.flippers.text import team_name
from engine.words import plural


def _listed(words: Sequence[str]) -> str:
    """Return "A", "A and B" or "A, B and C"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _who(names: Sequence[str], seat: int | None) -> str:
    """Return a seat's player name."""
    if seat is None:
        return "someone"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _power(cid: str) -> str:
    """Return the power name of an Explorer card ("Flip"), or a Food card's name."""
    card = CARDS[cid]
    return card.power_name or card.name


def _card_words(state: FlippersState, cid: str, names: Sequence[str]) -> str:
    """Return how a table card is called in menus: "Krill", "Bob's Flip" or "Bob's face-down card"."""
    card = CARDS[cid]
    if card.kind == FOOD:
        return card.name
    if state.face[cid] == DOWN:
        return f"{_who(names, card.team)}'s face-down card"
    return f"{_who(names, card.team)}'s {card.power_name}"


def _cell_words(state: FlippersState, cell: Cell, names: Sequence[str]) -> str:
    """Return a cell with what it holds: "N13 (Krill)" or "N13 (empty)"."""
    cid = state.cells.get(cell)
    return f"{label(cell)} ({'empty' if cid is None else _card_words(state, cid, names)})"


def aim_words(state: FlippersState, cid: str, cell: Cell, facing: str, names: Sequence[str]) -> str:
    """Say what a card on `cell` facing `facing` would target, e.g. "aims at N13 (Krill)"."""
    targets = [_cell_words(state, spot, names) for spot in aims(CARDS[cid].power, cell, facing)]
    return "aims at " + _listed(targets)


def beside_words(state: FlippersState, cell: Cell, names: Sequence[str]) -> str:
    """Say which table cards an open cell touches, e.g. "beside Krill (N15)"."""
    touching = [
        f"{_card_words(state, state.cells[spot], names)} ({label(spot)})"
        for spot in neighbours(cell)
        if spot in state.cells
    ]
    return "beside " + _listed(touching)


NO_DISCARD = "Name the card(s) to discard, separated by commas, e.g. `Flip, Bump` (the menu lists your hand)."


def discard_note(cards: Sequence[str]) -> str:
    """Return the private confirmation of a setup discard."""
    words = [_power(c) if c in CARDS else c for c in cards]
    return f"You discarded {_listed(words)}. Nobody else learns which; the board is updated in the channel."


def standings_lines(outcome: Outcome, names: Sequence[str]) -> list[str]:
    """Return each seat's stash, Food card and Leader points and total; in Team Up, each team first."""
    sides: dict[int, list[Standing]] = {}
    for s in outcome.standings:
        sides.setdefault(s.detail.get("side", s.seat), []).append(s)
    if all(len(members) == 1 for members in sides.values()):
        return [
            f"{s.rank}. {'🏆 ' if s.winner else ''}{_seat_name(s, names)}: {plural(s.score, 'point')}"
            f" = {_breakdown(s)}"
            for s in outcome.standings
        ]
    lines = []
    for members in sides.values():
        trophy = "🏆 " if any(s.winner for s in members) else ""
        team = team_name(sorted(s.seat for s in members))
        rank = min(s.rank for s in members)
        lines.append(f"{rank}. {trophy}{team}: {plural(members[0].score, 'point')} together")
        lines += [f"  · {_seat_name(s, names)}: {s.detail.get('total', 0)} = {_breakdown(s)}" for s in members]
    return lines


def _seat_name(s: Standing, names: Sequence[str]) -> str:
    """Return "Ana (Chinstrap)", marked when the seat resigned."""
    gone = ", resigned" if s.detail.get("resigned") else ""
    return f"{_who(names, s.seat)} ({TEAMS[s.seat]['short']}{gone})"


def _breakdown(s: Standing) -> str:
    """Return a seat's points itemised: stash, Food cards and Leader."""
    d = s.detail
    return f"stash {d.get('stash', 0)} + Food cards {d.get('food', 0)} + Leader {d.get('leader', 0)}"
