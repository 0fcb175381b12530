"""Check what a player's action names: whose turn it is, the card in hand or on the table, whether it may act."""

from __future__ import annotations

from typing import Any

from engine.base import IllegalAction
from engine.flippers.cards import CARDS, FOOD, LEADER
from engine.flippers.names import card_name, find_card, team_short
from engine.flippers.powers import blocker
from engine.flippers.state import LEADERS, SETUP, UP, FlippersState
from engine.flippers.table import label, parse_label
from engine.words import quote
from i18n import _


def cannot_activate(state: FlippersState, seat: int, cid: str) -> str | None:
    """Return why `seat` may not activate table card `cid` now, or None when it may."""
    card = CARDS[cid]
    if card.kind == FOOD:
        return _("Food cards have no power to activate.")
    if card.team != seat:
        return _("{card} is not your card: you activate only your own team.", card=card_text(state, cid))
    if card.power == LEADER:
        return _("Your Leader has no power during play: it scores at the end of the game.")
    if state.face[cid] != UP:
        return _("{card} is face down: face-down cards cannot be activated.", card=card_text(state, cid))
    if cid in state.activated:
        return _("{card} has already acted this turn.", card=card_text(state, cid))
    other = blocker(state, cid)
    if other == seat:
        return _("{card} is under your own Block marker: it cannot act.", card=card_text(state, cid))
    if other is not None:
        return _(
            "{card} is under the {team} Block marker: it cannot act.",
            card=card_text(state, cid),
            team=team_short(other),
        )
    return None


def check_turn(state: FlippersState, seat: int) -> None:
    """Raise unless it is `seat`'s turn of play."""
    if state.phase == LEADERS:
        raise IllegalAction(_("Setup is not finished: the Leaders are being placed."))
    if state.phase == SETUP:
        raise IllegalAction(_("Setup is not finished: everyone must choose their discards first."))
    if seat != state.current:
        raise IllegalAction(_("It is not your turn."))


def hand_card(state: FlippersState, seat: int, ref: Any) -> str:
    """Return the id of the card in the seat's hand that `ref` names."""
    cid = find_card(ref) if isinstance(ref, str) else None
    if cid is None or cid not in state.hands[seat]:
        raise IllegalAction(_("{typed} is not a card in your hand.", typed=quote(ref)))
    return cid


def table_card(state: FlippersState, seat: int, ref: Any) -> str:
    """Return the id of the table card `ref` names by id, name or cell label."""
    if not isinstance(ref, str):
        raise IllegalAction(_("Name the card to activate by its cell (like N14) or its name."))
    cid = find_card(ref)
    if cid is None:
        cell = parse_label(ref)
        if cell is None:
            raise IllegalAction(_("{typed} is neither a card nor a cell.", typed=quote(ref)))
        if cell not in state.cells:
            raise IllegalAction(_("There is no card at {cell}.", cell=label(cell)))
        return state.cells[cell]
    if cid not in state.where:
        if cid in state.hands[seat]:
            raise IllegalAction(_("{card} is in your hand.", card=card_name(cid)))
        raise IllegalAction(_("{card} is not on the table.", card=card_name(cid)))
    return cid


def card_text(state: FlippersState, cid: str) -> str:
    """Return a card's name and cell for messages."""
    # TRANSLATORS: a card on the table in messages, "Chinstrap Flip (N14)".
    return _("{card} ({cell})", card=card_name(cid), cell=label(state.where[cid]))
