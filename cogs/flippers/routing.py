"""Route presses on Flippers boards and private menus to the right question or move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from cogs.flippers.menus import (
    ACTIVATE,
    CARD,
    CARD_FACE,
    CELL,
    DISCARD,
    DISCARD_BUTTON,
    FACE,
    HAND_BUTTON,
    LEADER,
    MAX_MENUS,
    PLAY_BUTTON,
    ROW,
    SPOT,
    _one,
    _reply,
    _row,
    discard_menu,
)
from cogs.flippers.options import NEAR_CELLS, cell_options, facing_options, must_discard, nearest_cells, spot_options
from cogs.flippers.words import (
    NO_DISCARD,
    _power,
    _who,
    aim_words,
    beside_words,
    discard_note,
    facing_word,
    sentences,
)
from engine.base import Action
from engine.flippers.game import open_cells
from engine.flippers.state import LEADERS, SETUP, FlippersState
from engine.flippers.table import DIRECTIONS, label, parse_label
from i18n import _, ngettext
from ui.adapter import Board
from ui.components import MAX_OPTIONS, ComponentHit, chunked_selects, select
from ui.errors import UserError, not_your_turn

if TYPE_CHECKING:
    from ui.adapter import Table


async def route(flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit) -> None:
    """Route the board's buttons and select, and the private discard and play menus."""
    kind, _colon, arg = hit.token.partition("#")[0].partition(":")
    if kind == HAND_BUTTON:
        await flow.show_hand(interaction, board.row)
    elif kind == LEADER:
        _placer(interaction, board)
        action = {"type": "leader", "cell": _one(hit)}
        await flow.act(interaction, board.row, action, expected_version=hit.version)
    elif kind == DISCARD_BUTTON:
        seat = _chooser(interaction, board)
        count = must_discard(board.state, seat)
        text = ngettext(
            "Choose {n} card to set aside for the whole game. "
            "Only you see this menu, and nobody learns what you discard.",
            "Choose {n} cards to set aside for the whole game. "
            "Only you see this menu, and nobody learns what you discard.",
            count,
        )
        await _reply(interaction, text, [discard_menu(board, seat)])
    elif kind == DISCARD:
        _chooser(interaction, board)
        if not hit.values:
            raise UserError(_(NO_DISCARD))
        action = {"type": "discard", "cards": list(hit.values)}
        await flow.act(interaction, board.row, action, private_note=discard_note(hit.values))
    elif kind == PLAY_BUTTON:
        seat = _player(interaction, board)
        await _offer_spots(interaction, board, board.state.hands[seat])
    elif kind == CARD:
        await _offer_spots(interaction, board, [_one(hit)])
    elif kind == SPOT:
        cell, _colon, facing = _one(hit).partition(":")
        action: Action = {"type": "play", "card": arg, "cell": cell, "facing": facing, "rest": True}
        _held(interaction, board, arg)
        await flow.act(interaction, board.row, action, expected_version=hit.version)
    elif kind == ROW:
        await _offer_cells(interaction, board, arg, _row(_one(hit)))
    elif kind == CELL:
        await _offer_facings(interaction, board, arg, _one(hit))
    elif kind == FACE:
        await _play(flow, interaction, board, hit, arg)
    elif kind == CARD_FACE:
        cid, _colon, facing = _one(hit).partition(":")
        _held(interaction, board, cid)
        action = {"type": "play", "card": cid, "cell": arg, "facing": facing, "rest": True}
        await flow.act(interaction, board.row, action, expected_version=hit.version)
    elif kind == ACTIVATE:
        action = {"type": "activate", "card": _one(hit), "rest": True}
        await flow.act(interaction, board.row, action, expected_version=hit.version)
    else:
        raise UserError(_("That menu is not part of this game."))


def _seat(interaction: discord.Interaction, board: Board) -> int:
    """Return the presser's seat, or refuse."""
    seat = board.row.seat_of(interaction.user.id)
    if seat is None:
        raise UserError(_("You are not playing in this game."))
    if board.state.resigned[seat]:
        raise UserError(_("You have resigned from this game."))
    return seat


def _chooser(interaction: discord.Interaction, board: Board) -> int:
    """Return the presser's seat if it still has to choose its setup discards, or refuse."""
    seat = _seat(interaction, board)
    if board.state.phase != SETUP:
        raise UserError(_("Setup is over: discards are chosen only before the first turn."))
    if not must_discard(board.state, seat):
        raise UserError(_("You have already chosen your discards: waiting for the others."))
    return seat


def _placer(interaction: discord.Interaction, board: Board) -> int:
    """Return the presser's seat if it is to place its Leader now, or refuse."""
    seat = _seat(interaction, board)
    state: FlippersState = board.state
    if state.phase != LEADERS:
        raise UserError(_("The Leaders are all placed."))
    if state.current != seat:
        raise UserError(_("It is {player}'s turn to place their Leader.", player=_who(board.names, state.current)))
    return seat


def _player(interaction: discord.Interaction, board: Board) -> int:
    """Return the presser's seat if it is to play a card now, or refuse."""
    seat = _seat(interaction, board)
    state: FlippersState = board.state
    if state.phase == LEADERS:
        raise UserError(_("Setup is not finished: the Leaders are being placed."))
    if state.phase == SETUP:
        raise UserError(_("Setup is not finished: everyone must choose their discards first."))
    if state.current != seat:
        raise UserError(not_your_turn(board.names, board.game.to_act(state)))
    if state.played is not None:
        raise UserError(_("You have already played a card this turn: activate your remaining cards."))
    return seat


def _held(interaction: discord.Interaction, board: Board, cid: str) -> int:
    """Return the presser's seat if it may play card `cid` from its hand now, or refuse."""
    seat = _player(interaction, board)
    if cid not in board.state.hands[seat]:
        raise UserError(_("That card is no longer in your hand."))
    return seat


def _row_option(row: int, cells: int) -> tuple[str, str, str]:
    """Return a row menu's option: "Row 12", its number, and how many open cells it has."""
    return _("Row {row}", row=row), str(row), ngettext("{n} open cell", "{n} open cells", cells)


async def _offer_spots(interaction: discord.Interaction, board: Board, cards: Sequence[str]) -> None:
    """Ask privately where a card goes and which way it faces: one pick for the cells nearest the Food.

    Each card in `cards` gets a menu of the open cells nearest a Food card with their four facings, so a card is
    played in two picks from the board (the button, then this menu). Any other cell is picked from the menus
    below, then the card and its facing together: three picks.
    """
    _player(interaction, board)
    for cid in cards:
        _held(interaction, board, cid)
    state: FlippersState = board.state
    gid, ver = board.row.id, board.version
    cells = nearest_cells(state)
    near, rest = cells[:NEAR_CELLS], cells[NEAR_CELLS:]
    menus = [
        select(
            gid,
            ver,
            f"{SPOT}:{cid}",
            _("Play {power} on… facing…", power=_power(cid)),
            spot_options(state, cid, near, board.names),
        )
        for cid in cards
    ]
    if len(cards) == 1:
        text = _(
            "Where do you play {power}, and which way does its arrow point? Nearest the Food first.",
            power=_power(cards[0]),
        )
    else:
        text = _("Which card do you play, where, and which way does its arrow point? Nearest the Food first.")
    if rest:
        # One card: the cell, then its facing. Several: the cell, then the card and its facing in one menu.
        token = f"{CELL}:{cards[0]}" if len(cards) == 1 else f"{CELL}:"
        others = [
            (label(c), label(c), beside_words(state, c, board.names)) for c in sorted(rest, key=lambda c: (c[1], c[0]))
        ]
        room = max(1, MAX_MENUS - len(menus))
        if len(others) <= room * MAX_OPTIONS:
            menus += chunked_selects(gid, ver, token, _("Another cell…"), others, max_menus=room)
        else:
            rows: dict[int, int] = {}
            for cell in rest:
                rows[cell[1]] = rows.get(cell[1], 0) + 1
            by_row = [_row_option(r, n) for r, n in sorted(rows.items())]
            row_token = token.replace(CELL, ROW, 1)
            menus += chunked_selects(gid, ver, row_token, _("Another cell: its row first…"), by_row, max_menus=room)
        more = _("Or pick another cell below.")
        text = sentences(text, more)
    await _reply(interaction, text, menus)


async def _offer_cells(interaction: discord.Interaction, board: Board, cid: str, row: int | None = None) -> None:
    """Ask privately where the chosen card (or, with `cid` empty, a card of the hand) goes: a cell, or first its row."""
    if cid:
        _held(interaction, board, cid)
    else:
        _player(interaction, board)
    gid, ver, power = board.row.id, board.version, _power(cid) if cid else _("your card")
    options = cell_options(board.state, board.names, row)
    if not options:
        raise UserError(_("No open cell on that row: pick another."))
    if len(options) <= MAX_MENUS * MAX_OPTIONS:
        menus = chunked_selects(
            gid, ver, f"{CELL}:{cid}", _("Play {power} on…", power=power), options, max_menus=MAX_MENUS
        )
        text = _("Where do you play {power}? Open cells touch a card on the table.", power=power)
    else:
        rows: dict[int, int] = {}
        for cell in open_cells(board.state):
            rows[cell[1]] = rows.get(cell[1], 0) + 1
        by_row = [_row_option(r, n) for r, n in rows.items()]
        menus = chunked_selects(gid, ver, f"{ROW}:{cid}", _("Pick a row first…"), by_row, max_menus=MAX_MENUS)
        text = _("Where do you play {power}? There are many open cells: pick the row first.", power=power)
    await _reply(interaction, text, list(menus))


async def _offer_facings(interaction: discord.Interaction, board: Board, cid: str, where: str) -> None:
    """Ask privately which way the chosen card faces (with `cid` empty: which card too), saying what each aims at."""
    seat = _held(interaction, board, cid) if cid else _player(interaction, board)
    cell = parse_label(where)
    if cell is None or label(cell) not in {label(c) for c in open_cells(board.state)}:
        raise UserError(_("{cell} is not an open cell any more: start again from the newest board.", cell=where))
    if not cid:
        options = [
            (
                # TRANSLATORS: a card of the hand and where its arrow would point, e.g. "Flip facing north".
                _("{power} facing {direction}", power=_power(card), direction=facing_word(d)),
                f"{card}:{d}",
                aim_words(board.state, card, cell, d, board.names),
            )
            for card in board.state.hands[seat]
            for d in DIRECTIONS
        ]
        on = label(cell)
        menu = select(board.row.id, board.version, f"{CARD_FACE}:{on}", _("On {cell}: play…", cell=on), options)
        await _reply(interaction, _("On {cell}: which card, and which way does its arrow point?", cell=on), [menu])
        return
    options = facing_options(board.state, cid, cell, board.names)
    token, power, on = f"{FACE}:{cid}:{label(cell)}", _power(cid), label(cell)
    menu = select(board.row.id, board.version, token, _("{power} on {cell} faces…", power=power, cell=on), options)
    await _reply(interaction, _("{power} on {cell}: which way does its arrow point?", power=power, cell=on), [menu])


async def _play(flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit, arg: str) -> None:
    """Play the chosen card: the board, now showing it, is posted in the game's channel."""
    cid, _colon, cell = arg.partition(":")
    action: Action = {"type": "play", "card": cid, "cell": cell, "facing": _one(hit), "rest": True}
    await flow.act(interaction, board.row, action, expected_version=hit.version)
