"""Show 10 Gallon Tank to players: the public table, the final standings and one seat's own aquarium."""

from __future__ import annotations

from typing import Any, Protocol

from engine.base import Outcome
from engine.tank import text
from engine.tank.cards import CARDS, card_json, kinds_in_play
from engine.tank.data import RULES, CardKind
from engine.tank.grid import all_lines, cut_lines, label, size
from engine.tank.names import card_name, goal_name, goal_text, kind_name
from engine.tank.scoring import preview
from engine.tank.state import TankState

KIND_ORDER = {k.key: i for i, k in enumerate(RULES.kinds)}


class Rules(Protocol):
    """What the table view asks the rules (engine/tank/game.py passes itself): whose turn, the order, the result."""

    key: str

    def round_order(self, state: TankState) -> list[int]:
        """Return the seats in play this round, clockwise from the round's start player."""
        ...

    def to_act(self, state: TankState) -> list[int]:
        """Return the seat the game waits for."""
        ...

    def outcome(self, state: TankState) -> Outcome:
        """Return the standings."""
        ...

    def discard_options(self, state: TankState, seat: int) -> list[str]:
        """Return the fish `seat` may discard for its Gouramis."""
        ...


def _face(card_id: str) -> dict[str, Any]:
    """Return a card's public face with its name in the current language."""
    face = card_json(card_id)
    face["name"] = card_name(card_id)
    return face


def sort_key(card_id: str) -> tuple[int, int, str]:
    """Order cards by fish type, then printed value, then id."""
    card = CARDS[card_id]
    return KIND_ORDER[card.kind], card.value or 0, card_id


def kinds_shown(players: int) -> list[CardKind]:
    """Return the card kinds a game of this size can hold: its fish types in play, then the chest."""
    present = set(kinds_in_play(players))
    return [k for k in RULES.kinds if k.key in present or not k.is_fish]


def seen(state: TankState) -> dict[str, list[Any]]:
    """Return what every seat watched happen in the open: the cards each seat took, and the groups left over.

    Gourami discards are private, so a seat's taken cards include the ones it later discarded unseen.
    """
    discarded = {c for pile in state.own_discards for c in pile}
    return {
        "taken": [sorted(state.hands[s] + state.own_discards[s], key=sort_key) for s in range(state.players)],
        "leftovers": sorted((c for c in state.discards if c not in discarded), key=sort_key),
    }


def taken_by_kind(state: TankState, seat: int) -> list[dict[str, Any]]:
    """Return what `seat` took in the open, by kind: key, count, name and printed values (Gourami discards made
    since included, as nobody saw which they were)."""
    cards = state.hands[seat] + state.own_discards[seat]
    taken = []
    for kind in kinds_shown(state.players):
        mine = [CARDS[c] for c in cards if CARDS[c].kind == kind.key]
        if mine:
            values = sorted(card.value for card in mine if card.value)
            taken.append(
                {"key": kind.key, "count": len(mine), "name": kind_name(kind.key, len(mine)), "values": values}
            )
    return taken


def table_view(game: Rules, state: TankState, seat: int | None) -> dict[str, Any]:
    """Return the public table, plus `seat`'s own aquarium, discards, score preview and what it saw taken."""
    goal = RULES.goal(state.goal)
    side = state.side
    over = state.phase == "over"
    order = game.round_order(state) if not over else []
    public: dict[str, Any] = {
        "game": game.key,
        "players": state.players,
        "round": state.round,
        "rounds": state.setup.rounds,
        "phase": state.phase,
        "over": over,
        "grid_size": side,
        "lines": all_lines(side),
        "goal": {
            "key": goal.key,
            "name": goal_name(goal.key),
            "text": goal_text(goal.key),
            "points": RULES.goal_points,
        },
        "start_seat": order[0] if order else None,
        "to_act": game.to_act(state),
        "grid": [
            [None if (c := state.grid[r * side + col]) is None else _face(c) for col in range(side)]
            for r in range(side)
        ],
        "groups": [
            {
                "letter": name,
                "label": label(name),
                "rows": [rect[0], rect[2]],
                "cols": [rect[1], rect[3]],
                "size": size(rect),
                "cuts": cut_lines(rect) if state.phase == "split" else [],
            }
            for name, rect in sorted(state.groups.items())
        ],
        "split_order": list(state.queue) if state.phase == "split" else [],
        "take_order": list(state.take_queue if state.phase == "split" else state.queue),
        "pending_discards": state.pending.left if state.pending is not None else 0,
        "seats": [
            {
                "seat": s,
                "cards": len(state.hands[s]),
                "discarded": len(state.own_discards[s]),
                "taken": taken_by_kind(state, s),
                "resigned": state.resigned[s],
            }
            for s in range(state.players)
        ],
        "deck": len(state.deck),
        "discard_pile": len(state.discards),
        "scoring": text.scoring_reminders(state.players),
        "final": None,
    }
    if over:
        result = game.outcome(state)
        public["final"] = {
            "standings": [
                {
                    "seat": st.seat,
                    "rank": st.rank,
                    "winner": st.winner,
                    "total": st.score,
                    "detail": st.detail,
                }
                for st in result.standings
            ],
            "aquariums": [[_face(c) for c in sorted(h, key=sort_key)] for h in state.hands],
            "kinds": [
                {"key": k.key, "name": kind_name(k.key), "plural": kind_name(k.key, 2)}
                for k in kinds_shown(state.players)
            ],
            "tiebreak": result.tiebreak,
        }
    if seat is None:
        return public
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat!r} in a {state.players}-player game")
    hand = sorted(state.hands[seat], key=sort_key)
    public["seat"] = seat
    public["aquarium"] = [_face(c) for c in hand]
    public["by_kind"] = [
        {
            "key": k.key,
            "name": kind_name(k.key),
            "plural": kind_name(k.key, 2),
            "cards": [_face(c) for c in hand if CARDS[c].kind == k.key],
        }
        for k in kinds_shown(state.players)
    ]
    public["preview"] = preview(state.hands[seat], goal, state.players)
    public["my_discards"] = [_face(c) for c in state.own_discards[seat]]
    public["seen"] = seen(state)
    pending = state.pending
    public["discard"] = (
        {"left": pending.left, "options": game.discard_options(state, seat)}
        if pending is not None and pending.seat == seat
        else None
    )
    return public
