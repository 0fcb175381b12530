"""Build what a seat may see of a Flippers game: the public table, plus its own hand."""

from __future__ import annotations

from typing import Any

from engine.flippers.cards import CARDS, EXPLORER, TEAMS, setup_rule
from engine.flippers.names import card_name, power_name, power_text, team_name, team_short
from engine.flippers.powers import available, markers
from engine.flippers.scoring import outcome, projected, scores
from engine.flippers.state import DOWN, LEADERS, OVER, PLAY, SETUP, FlippersState
from engine.flippers.table import aims, food_arrows, label, step


def _card(state: FlippersState, cid: str, on_cells: dict[tuple[int, int], list[int]]) -> dict[str, Any]:
    """Return one table card as the public sees it."""
    card = CARDS[cid]
    cell = state.where[cid]
    facing, face = state.facing[cid], state.face[cid]
    entry: dict[str, Any] = {
        "id": cid,
        "name": card_name(cid),
        "kind": card.kind,
        "cell": label(cell),
        "col": cell[0],
        "row": cell[1],
        "facing": facing,
        "face": face,
        "markers": on_cells.get(cell, []),
    }
    if card.kind == EXPLORER:
        entry.update(
            team=card.team,
            power=card.power,
            power_name=power_name(card.power),
            targets=[] if face == DOWN else [label(c) for c in aims(card.power, cell, facing)],
            blocked_by=next(iter(on_cells.get(cell, [])), None),
        )
    else:
        arrows = food_arrows(card.arrows(face), facing)
        entry["arrows"] = [{"dir": d, "points": p, "cell": label(step(cell, d))} for d, p in arrows]
    return entry


def _hand_entry(cid: str) -> dict[str, Any]:
    """Return a card in hand as its owner sees it."""
    card = CARDS[cid]
    return {
        "id": cid,
        "name": card_name(cid),
        "power": card.power,
        "power_name": power_name(card.power),
        "text": power_text(card.power),
    }


def _markers(state: FlippersState, on_cells: dict[tuple[int, int], list[int]]) -> list[dict[str, Any]]:
    """Return one entry per Block marker on the table, in team order, with the card it blocks (or None)."""
    placed = sorted((team, cell) for cell, teams in on_cells.items() for team in teams)
    return [
        {
            "cell": label(cell),
            "col": cell[0],
            "row": cell[1],
            "team": team,
            "letter": TEAMS[team]["letter"],
            "blocks": state.cells.get(cell),
        }
        for team, cell in placed
    ]


def _box(cells: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    """Return the first and last column and row of `cells`."""
    return min(c[0] for c in cells), max(c[0] for c in cells), min(c[1] for c in cells), max(c[1] for c in cells)


def view(
    state: FlippersState, seat: int | None, to_act: list[int], open_cells: list[str], leader_cells: list[str]
) -> dict[str, Any]:
    """Return the public view, adding `seat`'s hand, discards and pending discard when it is given.

    `leader_cells` are the cells the seat to act may put its Leader on (Leader placement phase only).
    """
    on_cells = markers(state)
    cells = sorted(state.where.values())
    playing = state.phase == PLAY
    seats = [
        {
            "seat": s,
            "team": team_name(s),
            "short": team_short(s),
            "letter": TEAMS[s]["letter"],
            "side": state.side(s),
            "stash": state.stash[s],
            "hand_size": len(state.hands[s]),
            "deck_size": len(state.decks[s]),
            "discarded": len(state.discards[s]),
            "resigned": state.resigned[s],
            "chosen": state.chosen[s],
        }
        for s in range(state.players)
    ]
    result = outcome(state) if state.phase == OVER else None
    out: dict[str, Any] = {
        "game": "flippers",
        "phase": state.phase,
        "players": state.players,
        "teams_mode": state.teams_mode,
        "turn": state.turn,
        "current": state.current if playing or state.phase == LEADERS else None,
        "first": state.first,
        "to_act": to_act,
        "supply": state.supply,
        "seats": seats,
        "cards": [_card(state, state.cells[c], on_cells) for c in sorted(cells, key=lambda c: (c[1], c[0]))],
        "markers": _markers(state, on_cells),
        "open_cells": open_cells,
        "leader_cells": leader_cells,
        "bounds": {
            "min_col": min(c[0] for c in cells),
            "max_col": max(c[0] for c in cells),
            "min_row": min(c[1] for c in cells),
            "max_row": max(c[1] for c in cells),
        },
        "seen": dict(zip(("min_col", "max_col", "min_row", "max_row"), state.seen or _box(cells), strict=True)),
        "played": state.played if playing else None,
        "last_card": state.last_card,
        "last_plays": list(state.last_plays) or [None] * state.players,
        "activated": list(state.activated) if playing else [],
        "to_activate": available(state, state.current) if playing and state.played else [],
        "scores": scores(state),
        "projected": projected(state),
        "final": state.phase == OVER,
        "winners": result.winners if result else [],
        "tiebreak": result.tiebreak if result else "",
    }
    if seat is not None and 0 <= seat < state.players:
        out["you"] = seat
        out["hand"] = [_hand_entry(cid) for cid in state.hands[seat]]
        out["discarded_cards"] = [_hand_entry(cid) for cid in state.discards[seat]]
        waiting = state.phase == SETUP and not state.chosen[seat] and not state.resigned[seat]
        out["must_discard"] = setup_rule(state.players)[0] if waiting else 0
    return out
