"""Judge an unfinished Flippers table by its points now and the points its Plus and Minus cards will still move."""

from __future__ import annotations

from dataclasses import dataclass

from engine.flippers.cards import CARDS, FOOD, MINUS_POINTS, PLUS_POINTS, TEAMS, explorer_id, setup_rule, team_cards
from engine.flippers.powers import marked_cells
from engine.flippers.scoring import scores
from engine.flippers.state import UP, FlippersState
from engine.flippers.table import step

_INCOME_CARDS = tuple(
    ((explorer_id(team, "plus"), PLUS_POINTS), (explorer_id(team, "minus"), -MINUS_POINTS))
    for team in range(len(TEAMS))
)
"""Each team's recurring point cards with the points one activation gives its target's team."""


def estimate(state: FlippersState) -> list[float]:
    """Return each seat's points if the game ended as the table stands (partnership totals in Team Up)."""
    return by_side(state, [float(row["total"]) for row in scores(state)])


def by_side(state: FlippersState, points: list[float]) -> list[float]:
    """Return each seat's partnership total of per-seat points in Team Up; the points themselves otherwise."""
    if not state.teams_mode:
        return points
    sides: dict[int, float] = {}
    for s, value in enumerate(points):
        sides[state.side(s)] = sides.get(state.side(s), 0.0) + value
    return [sides[state.side(s)] for s in range(state.players)]


def income(state: FlippersState) -> list[float]:
    """Return the points each seat's team would gain or lose from Plus and Minus cards if the table stayed as it is.

    A face-up, unblocked Plus or Minus card aimed at a face-up Explorer acts again on every turn its owner has
    left, one for each card the owner still holds or will draw.
    """
    gains = [0.0] * state.players
    blocked = marked_cells(state)
    for seat in range(state.players):
        turns = len(state.hands[seat]) + len(state.decks[seat])
        if not turns or state.resigned[seat]:
            continue
        for cid, points in _INCOME_CARDS[seat]:
            cell = state.where.get(cid)
            if cell is None or state.face[cid] != UP or cell in blocked:
                continue
            target = state.cells.get(step(cell, state.facing[cid]))
            if target is None or state.face.get(target) != UP:
                continue
            card = CARDS[target]
            if card.team is not None and card.kind != FOOD and card.team < state.players:
                gains[card.team] += points * turns
    return gains


@dataclass(frozen=True)
class Weights:
    """Say how much each kind of point counts on an unfinished table: stash points count in full.

    Food and income weights run from their first value at the game's first play to their second at its last
    (`progress`): Food arrows and Plus or Minus cards aimed now may still be moved, flipped or blocked.
    """

    food: tuple[float, float] = (1.0, 1.0)
    leader: float = 1.0
    income: tuple[float, float] = (0.5, 0.5)


def progress(state: FlippersState) -> float:
    """Return how far the game is: 0 before the first play, 1 once no seat holds or will draw a card."""
    plays = state.players * (len(team_cards(0)) - 1 - setup_rule(state.players)[0])
    left = sum(len(hand) + len(deck) for hand, deck in zip(state.hands, state.decks, strict=True))
    return min(1.0, max(0.0, 1.0 - left / plays))


def outlook(state: FlippersState, weights: Weights) -> list[float]:
    """Return each seat's expected points: the stash and, by `weights`, Food, Leaders and recurring powers."""
    done = progress(state)
    food, recurring = (first + (last - first) * done for first, last in (weights.food, weights.income))
    gains = income(state)
    points = [
        row["stash"] + food * row["food"] + weights.leader * row["leader"] + recurring * gains[s]
        for s, row in enumerate(scores(state))
    ]
    return by_side(state, points)
