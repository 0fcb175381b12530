"""Build the Flippers selects (hand, Leader cells, discards) and answer privately with them."""

from __future__ import annotations

import discord

from cogs.flippers.options import hand_options, leader_options, must_discard
from cogs.flippers.words import _who
from engine.flippers.state import FlippersState
from engine.words import quote
from i18n import _, ngettext
from ui.adapter import Board
from ui.components import ComponentHit, FloeComponent, custom_id, select, view_of
from ui.errors import UserError
from ui.reply_menus import menu_sent
from ui.text import LABEL, shorten

KEY = "flippers"


DISCARD_BUTTON, PLAY_BUTTON, HAND_BUTTON = "discard?", "play?", "hand?"


DISCARD, CARD, ROW, CELL, FACE, ACTIVATE = "discard", "card", "row", "cell", "face", "activate"


LEADER, SPOT, CARD_FACE = "leader", "spot", "cardface"


MAX_MENUS = 4


def discard_menu(board: Board, seat: int) -> FloeComponent:
    """Return the select of the seat's hand that takes exactly as many cards as setup requires."""
    state: FlippersState = board.state
    count = must_discard(state, seat)
    options = [
        discord.SelectOption(label=shorten(power, LABEL), value=cid, description=shorten(text, LABEL))
        for power, cid, text in hand_options(state, seat)
    ]
    return FloeComponent(
        discord.ui.Select(
            custom_id=custom_id(board.row.id, board.version, DISCARD),
            placeholder=ngettext("Discard {n} card…", "Discard {n} cards…", count),
            min_values=count,
            max_values=count,
            options=options,
            disabled=board.disabled,
        )
    )


def leader_menu(board: Board) -> FloeComponent:
    """Return the public select of the cells where the seat to act may place its Leader."""
    options = leader_options(board.state, board.names)
    who = _who(board.names, board.state.current)
    placeholder = _("{player}: place your Leader…", player=who)
    return select(board.row.id, board.version, LEADER, placeholder, options, disabled=board.disabled)


def card_menu(board: Board, seat: int) -> FloeComponent:
    """Return the select of the seat's hand that starts playing a card."""
    options = hand_options(board.state, seat)
    return select(board.row.id, board.version, CARD, _("Play which card…"), options, disabled=board.disabled)


def _one(hit: ComponentHit) -> str:
    """Return the single value picked in a menu, or refuse."""
    if not hit.values:
        raise UserError(_("Pick an option from the menu."))
    return hit.values[0]


def _row(value: str) -> int:
    """Return a row number picked in the row menu."""
    try:
        return int(value)
    except ValueError:
        raise UserError(_("{typed} is not a row.", typed=quote(value))) from None


async def _reply(interaction: discord.Interaction, content: str, items: list[FloeComponent]) -> None:
    """Answer privately: update the private menu that was used, or open a new private message."""
    view = view_of(items)
    assert view is not None
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(content=content, view=view)
        await menu_sent(interaction, view, message.id)  # this press's token edits it for 15 more minutes
    else:
        answer = await interaction.response.send_message(content, view=view, ephemeral=True)
        await menu_sent(interaction, view, answer.message_id)
