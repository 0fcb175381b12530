"""Score the Food cards and Leaders, and rank the seats (Team Up adds partners together)."""

from __future__ import annotations

from typing import Any

from engine.base import Outcome, Standing
from engine.flippers.cards import CARDS, FOOD_IDS, LEADER, LEADER_BONUS, explorer_id
from engine.flippers.powers import marked_cells
from engine.flippers.state import UP, FlippersState
from engine.flippers.table import food_arrows, label, step
from i18n import _


def food_awards(state: FlippersState) -> list[dict[str, Any]]:
    """Return every end-of-game award the table gives now: Food arrows on face-up Explorers, then Leaders.

    A Leader under a Block marker gets no bonus (its power cannot act) but Food arrows still pay it.
    """
    awards = []
    for fid in FOOD_IDS:
        cell = state.where.get(fid)
        if cell is None:
            continue
        for direction, points in food_arrows(CARDS[fid].arrows(state.face[fid]), state.facing[fid]):
            spot = step(cell, direction)
            target = state.cells.get(spot)
            if target is not None and state.face[target] == UP:
                seat = CARDS[target].team
                awards.append(
                    {
                        "kind": "food",
                        "seat": seat,
                        "points": points,
                        "food": fid,
                        "target": target,
                        "cell": label(spot),
                        "direction": direction,
                    }
                )
    blocked = marked_cells(state)
    for seat in range(state.players):
        leader = explorer_id(seat, LEADER)
        cell = state.where.get(leader)
        if cell is None or state.face[leader] != UP or cell in blocked:
            continue
        target = state.cells.get(step(cell, state.facing[leader]))
        if target in FOOD_IDS:
            awards.append(
                {
                    "kind": "leader",
                    "seat": seat,
                    "points": LEADER_BONUS,
                    "food": target,
                    "target": leader,
                    "cell": label(cell),
                    "direction": state.facing[leader],
                }
            )
    return awards


def scores(state: FlippersState) -> list[dict[str, int]]:
    """Return each seat's stash, Food and Leader points and total, as the table stands."""
    rows = [{"stash": points, "food": 0, "leader": 0} for points in state.stash]
    for award in food_awards(state):
        rows[award["seat"]][award["kind"]] += award["points"]
    for row in rows:
        row["total"] = row["stash"] + row["food"] + row["leader"]
    return rows


def projected(state: FlippersState) -> list[int]:
    """Return each seat's points if the game ended now: stash, Food arrows and Leader bonus."""
    return [row["total"] for row in scores(state)]


def side_totals(state: FlippersState) -> dict[int, int]:
    """Return each side's points as the table stands (Team Up: partners added; else one seat per side)."""
    totals: dict[int, int] = {}
    for seat, row in enumerate(scores(state)):
        totals[state.side(seat)] = totals.get(state.side(seat), 0) + row["total"]
    return totals


def outcome(state: FlippersState) -> Outcome:
    """Rank the seats by points (Team Up: by partnership total, one rank per side); resigned seats come last."""
    rows = scores(state)
    side_total = side_totals(state)
    score = [side_total[state.side(seat)] for seat in range(state.players)]
    active = [seat for seat in range(state.players) if not state.resigned[seat]]
    best = max((score[seat] for seat in active), default=None)
    standings = []
    for seat in range(state.players):
        ahead = {state.side(o) for o in range(state.players) if score[o] > score[seat]}
        if state.resigned[seat]:
            rank = len({state.side(o) for o in active}) + 1 + len(ahead - {state.side(o) for o in active})
        else:
            rank = 1 + len(ahead & {state.side(o) for o in active})
        detail: dict[str, Any] = {**rows[seat], "side": state.side(seat), "resigned": state.resigned[seat]}
        standings.append(Standing(seat, score[seat], rank, seat in active and score[seat] == best, detail))
    standings.sort(key=lambda s: (s.rank, s.seat))
    winning_sides = {state.side(s.seat) for s in standings if s.winner}
    tiebreak = _("Tied: the victory is shared.") if len(winning_sides) > 1 else ""
    return Outcome(standings, tiebreak)
