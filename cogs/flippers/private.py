"""Show a Flippers seat its private hand: the picture, the text and the menus it may use."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.flippers.menus import card_menu, discard_menu
from cogs.flippers.options import can_play, must_discard
from cogs.flippers.words import _who, sentences
from engine.base import Event
from engine.flippers.state import LEADERS, OVER, SETUP
from engine.words import join_list
from i18n import N_, _, ngettext
from render.flippers import alt_text_hand, render_hand
from ui.adapter import Board, Picture
from ui.mentions import command

# TRANSLATORS: *Play a card…* is the board's button label: keep it the same as that translation.
TURN = N_("**Your turn:** play a card with the menu below, the board's *Play a card…* button or {command}.")


def private_picture(view: dict[str, Any], names: Sequence[str]) -> Picture:
    """Render the seat's own hand."""
    return Picture(render_hand(view, list(names)), "flippers-hand.png", alt_text_hand(view, list(names)))


def private_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """List the seat's hand with each power's text, its setup discards and what it must do now."""
    seat = view["you"]
    info = view["seats"][seat]
    lines = [_("**Your hand** ({team}, only you can see it)", team=info["team"])]
    lines += [f"- **{c['power_name']}**: {c['text']}" for c in view["hand"]]
    if not view["hand"]:
        lines.append(_("- no cards in hand"))
    deck = ngettext("Deck: {n} card left.", "Deck: {n} cards left.", info["deck_size"])
    if view["discarded_cards"]:
        aside = join_list([c["power_name"] for c in view["discarded_cards"]])
        set_aside = _("Set aside: {cards}.", cards=aside)
        deck = sentences(deck, set_aside)
    lines.append(deck)
    lines += _to_do(view, names)
    return "\n".join(lines)


def _to_do(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Return what the seat must do now (discard, place its Leader, play), or what it waits for."""
    seat, info = view["you"], view["seats"][view["you"]]
    if count := view["must_discard"]:
        # TRANSLATORS: *Choose your discards* is the board's button label: keep it the same as that translation.
        return [
            ngettext(
                "**Choose {n} card to discard** for the whole game: use the menu below, "
                "the board's *Choose your discards* button or {command}. Nobody learns which.",
                "**Choose {n} cards to discard** for the whole game: use the menu below, "
                "the board's *Choose your discards* button or {command}. Nobody learns which.",
                count,
                command=command("flippers discard"),
            )
        ]
    if view["phase"] == LEADERS and not info["resigned"]:
        first = _who(names, view["first"])
        if view["current"] == seat:
            return [
                _(
                    "**Your turn to place your Leader** beside a Food card, facing it: use the board's menu or"
                    " {command}. {player} plays first.",
                    player=first,
                    command=command("flippers leader"),
                )
            ]
        return [_("The Leaders are being placed ({player} plays first); your discards come next.", player=first)]
    if view["phase"] == SETUP and not info["resigned"]:
        return [_("Your discards are chosen: waiting for the others.")]
    if view["current"] == seat and view["played"] is None and view["hand"]:
        return [_(TURN, command=command("flippers play"))]
    return []


def private_items(board: Board, seat: int) -> list[discord.ui.Item[Any]]:
    """Offer the seat its discard choice in setup, or its hand to play from on its turn."""
    if must_discard(board.state, seat):
        return [discard_menu(board, seat)]
    if can_play(board.state, seat):
        return [card_menu(board, seat)]
    return []


def seats_to_update_privately(events: Sequence[Event], state: Any) -> set[int]:
    """Return every seat when discards open, and each seat that was dealt, discarded, drew or played.

    Nobody holds a card while the Leaders are placed, so the start of the game sends no private message; nor
    does its end, when every hand is empty.
    """
    if state.phase == OVER:
        return set()
    seats = {e.private_to for e in events if e.kind in ("discarded", "drew") and e.private_to is not None}
    seats |= {e.seat for e in events if e.kind == "played" and e.seat is not None}
    if any(e.kind == "discards_open" for e in events):
        seats |= {s for s in range(state.players) if not state.resigned[s]}
    return seats
