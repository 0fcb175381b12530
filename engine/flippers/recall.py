"""Remember what everyone saw of each seat's latest play: the table it was played on, and the card it chose.

A player who watched the game knows, for every other seat, the table as it stood when that seat last played,
which card it played and how many cards it held then. The computer player reads this record (through the
public view) to judge which cards that seat kept back; it holds nothing a watching player did not see.
"""

from __future__ import annotations

from typing import Any

from engine.base import CorruptState
from engine.flippers.cards import CARDS, EXPLORER, FOOD_SIDES, SUPPLY_TOTAL, team_cards
from engine.flippers.state import DOWN, UP, FlippersState
from engine.flippers.table import DIRECTIONS

Recall = dict[str, Any]
"""One seat's latest play: {"turn", "card", "held", "table": [[card, col, row, facing, face], ...], "engaged",
"stash", "supply"}, the table and points as they stood just before the card went down."""


def before_play(state: FlippersState, seat: int, cid: str) -> Recall:
    """Return the public record of `seat` playing `cid` now, taken before the card leaves its hand."""
    return {
        "turn": state.turn,
        "card": cid,
        "held": len(state.hands[seat]),
        "table": [
            [card, cell[0], cell[1], state.facing[card], state.face[card]] for cell, card in sorted(state.cells.items())
        ],
        "engaged": list(state.engaged),
        "stash": list(state.stash),
        "supply": state.supply,
    }


def check_recalls(value: Any, players: int) -> list[Recall | None]:
    """Return one validated record (or None) per seat from a save; saves from before the record have none."""
    if value is None:
        return [None] * players
    _check(isinstance(value, list) and len(value) == players, "last_plays must list every seat")
    return [None if entry is None else _checked(entry, seat, players) for seat, entry in enumerate(value)]


def _checked(entry: Any, seat: int, players: int) -> Recall:
    """Return one seat's record if it is well formed, else raise CorruptState."""
    _check(isinstance(entry, dict), "a last play must be an object")
    _check(entry.get("card") in team_cards(seat)[1:], "a last play names a card that is not the seat's")
    held = entry.get("held")
    _check(type(held) is int and 1 <= held <= len(team_cards(seat)), "bad hand size in a last play")
    _check(type(entry.get("turn")) is int and entry["turn"] >= 0, "bad turn in a last play")
    table = entry.get("table")
    _check(isinstance(table, list) and bool(table), "a last play needs its table")
    cells, cards = set(), set()
    for row in table:
        _check(isinstance(row, list) and len(row) == 5, "bad table entry in a last play")
        cid, col, line, facing, face = row
        _check(cid in CARDS and cid not in cards and type(col) is int and type(line) is int, "bad card in a last play")
        _check((col, line) not in cells and facing in DIRECTIONS, "bad cell in a last play")
        _check(face in ((UP, DOWN) if CARDS[cid].kind == EXPLORER else FOOD_SIDES), "bad side in a last play")
        cells.add((col, line))
        cards.add(cid)
    _check(entry["card"] not in cards, "a last play's card was already on its table")
    engaged, stash, supply = entry.get("engaged"), entry.get("stash"), entry.get("supply")
    _check(
        isinstance(engaged, list) and len(engaged) == players and all(type(e) is bool for e in engaged),
        "bad Block markers in a last play",
    )
    _check(
        isinstance(stash, list) and len(stash) == players and all(type(p) is int and p >= 0 for p in stash),
        "bad stashes in a last play",
    )
    _check(type(supply) is int and supply >= 0 and sum(stash) + supply == SUPPLY_TOTAL, "bad points in a last play")
    return {key: entry[key] for key in ("turn", "card", "held", "table", "engaged", "stash", "supply")}


def _check(condition: bool, message: str) -> None:
    """Raise CorruptState with `message` unless `condition` holds."""
    if not condition:
        raise CorruptState(message)
