"""Judge which card each Flippers opponent kept back at its latest play, from the card it chose to play instead.

A seat that held two cards played one and kept the other, which is still in its hand. Everyone saw the table it
played on (the view's `last_plays`), so for each card it might have kept we can ask how much better or worse that
card would have scored there than the one it played: a card that would clearly have scored more was probably not
in its hand. Every other unseen card is as likely as before to be in its hand, deck or discards.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ai.base import GameAI
from engine.flippers.cards import team_cards
from engine.flippers.game import open_cells
from engine.flippers.state import PLAY, FlippersState
from engine.flippers.table import DIRECTIONS, label

CHOICE_TEMPERATURE = 1.0
"""Points of difference that make a player e (2.7) times likelier to play the better of two cards."""
SLIP = 0.1
"""Chance a player plays a card for reasons our one-move judgement does not see, whatever the points say."""

Kept = dict[int, dict[str, float]]
"""Per other seat, the weight of each unseen card of its team being the card it kept at its latest play."""


def kept_weights(ai: GameAI[FlippersState], view: Mapping[str, Any], seat: int) -> Kept:
    """Return, for each other seat that chose between cards at its latest play, each unseen card's weight as kept."""
    on_table = {card["id"] for card in view["cards"]}
    out: Kept = {}
    for s, recall in enumerate(view.get("last_plays") or ()):
        info = view["seats"][s]
        if s == seat or recall is None or recall["held"] < 2 or info["resigned"] or not info["hand_size"]:
            continue
        unseen = [c for c in team_cards(s)[1:] if c not in on_table]
        if len(unseen) <= info["hand_size"]:
            continue  # every unseen card is in its hand: nothing to judge
        values = best_plays(ai, view, s, recall, unseen)
        played = values[recall["card"]]
        out[s] = {
            c: SLIP + (1 - SLIP) / (1 + math.exp(min(50.0, (values[c] - played) / CHOICE_TEMPERATURE))) for c in unseen
        }
    return out


def best_plays(
    ai: GameAI[FlippersState], view: Mapping[str, Any], s: int, recall: Mapping[str, Any], unseen: list[str]
) -> dict[str, float]:
    """Return, for the card seat `s` played and each card it might have kept, its best one-move score on that table."""
    table = position(view, s, recall)
    spots = [label(c) for c in open_cells(table)]
    values = {}
    for cid in [recall["card"], *unseen]:
        table.hands[s] = [cid]
        best = -math.inf
        for cell in spots:
            for facing in DIRECTIONS:
                after = ai.clone(table)
                ai.game.apply(after, s, {"type": "play", "card": cid, "cell": cell, "facing": facing})
                best = max(best, ai.easy_score(after, s))
        values[cid] = best
    return values


def position(view: Mapping[str, Any], s: int, recall: Mapping[str, Any]) -> FlippersState:
    """Return the table as seat `s` saw it before its latest play, with no cards in any hand or deck."""
    players = view["players"]
    cells = {(col, row): cid for cid, col, row, _facing, _face in recall["table"]}
    return FlippersState(
        players=players,
        teams_mode=view["teams_mode"],
        phase=PLAY,
        cells=cells,
        where={cid: cell for cell, cid in cells.items()},
        facing={cid: facing for cid, _col, _row, facing, _face in recall["table"]},
        face={cid: face for cid, _col, _row, _facing, face in recall["table"]},
        hands=[[] for _ in range(players)],
        decks=[[] for _ in range(players)],
        discards=[[] for _ in range(players)],
        unused_food=[],
        chosen=[True] * players,
        resigned=[info["resigned"] for info in view["seats"]],
        stash=list(recall["stash"]),
        supply=recall["supply"],
        engaged=list(recall["engaged"]),
        current=s,
        turn=recall["turn"],
        first=view["first"],
        last_plays=[None] * players,
    )
