"""Build what a seat may see of a Flippers game: the public table, plus its own hand."""

from __future__ import annotations

from typing import Any

from engine.legacy.flippers_v1.cards import CARDS, EXPLORER, POWER_NAMES, POWER_TEXT, TEAMS, setup_rule
from engine.legacy.flippers_v1.powers import available, markers
from engine.legacy.flippers_v1.scoring import outcome, scores
from engine.legacy.flippers_v1.state import DOWN, OVER, PLAY, SETUP, FlippersState
from engine.legacy.flippers_v1.table import aims, food_arrows, label, step
from engine.legacy.names import card_name, power_text, team_name, team_short


def _card(state: FlippersState, cid: str, on_cells: dict[tuple[int, int], list[int]]) -> dict[str, Any]:
    """Return one table card as the public sees it."""
    card = CARDS[cid]
    cell = state.where[cid]
    facing, face = state.facing[cid], state.face[cid]
    entry: dict[str, Any] = {
        "id": cid,
        "name": card_name(card, TEAMS, POWER_NAMES),
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
            power_name=card.power_name,
            targets=[] if face == DOWN else [label(c) for c in aims(card.power, cell, facing)],
            blocked_by=next((t for t in on_cells.get(cell, []) if state.opposed(t, card.team)), None),
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
        "name": card_name(card, TEAMS, POWER_NAMES),
        "power": card.power,
        "power_name": card.power_name,
        "text": power_text(POWER_TEXT[card.power or ""]),
    }


def view(state: FlippersState, seat: int | None, to_act: list[int], open_cells: list[str]) -> dict[str, Any]:
    """Return the public view, adding `seat`'s hand, discards and pending discard when it is given."""
    on_cells = markers(state)
    cells = sorted(state.where.values())
    playing = state.phase == PLAY
    seats = [
        {
            "seat": s,
            "team": team_name(TEAMS[s]),
            "short": team_short(TEAMS[s]),
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
        "current": state.current if playing else None,
        "to_act": to_act,
        "supply": state.supply,
        "seats": seats,
        "cards": [_card(state, state.cells[c], on_cells) for c in sorted(cells, key=lambda c: (c[1], c[0]))],
        "markers": [
            {"team": team, "cell": label(cell), "card": state.cells[cell]}
            for cell, teams in sorted(on_cells.items())
            for team in teams
        ],
        "open_cells": open_cells,
        "bounds": {
            "min_col": min(c[0] for c in cells),
            "max_col": max(c[0] for c in cells),
            "min_row": min(c[1] for c in cells),
            "max_row": max(c[1] for c in cells),
        },
        "played": state.played if playing else None,
        "activated": list(state.activated) if playing else [],
        "to_activate": available(state, state.current) if playing and state.played else [],
        "scores": scores(state),
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
