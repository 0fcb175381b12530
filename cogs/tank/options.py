"""List what a tank seat may pick now (groups, lines, fish to discard) and read what it typed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cogs.tank.words import KEEP, KEEP_WORDS, _group_shape, _split_hint, _take_hint
from engine.base import Action
from engine.tank import GAME
from engine.tank.grid import from_label, label
from engine.tank.names import card_name
from engine.tank.state import TankState
from engine.words import quote
from i18n import _, ngettext
from ui.errors import UserError
from ui.mentions import command


def discard_choices(state: TankState, seat: int) -> list[tuple[str, str, int]]:
    """Return (display name, card id, how many held) per distinct card `seat` may discard now, or [] if none."""
    pending = state.pending
    if state.phase != "discard" or pending is None or pending.seat != seat:
        return []
    options = GAME.discard_options(state, seat)
    held = Counter(card_name(c) for c in options)
    seen: dict[str, str] = {}
    for card in options:
        seen.setdefault(card_name(card), card)
    return [(name, card, held[name]) for name, card in seen.items()]


def discard_card_labels(state: TankState, seat: int) -> list[tuple[str, str]]:
    """Return (label, value) for keeping every fish and for each fish `seat` may discard now, or [] if none."""
    fish = [
        (ngettext("{fish} (you hold {n})", "{fish} (you hold {n})", held, fish=name), card)
        for name, card, held in discard_choices(state, seat)
    ]
    return [(_("Keep all my fish"), KEEP), *fish] if fish else []


def discard_action(state: TankState, seat: int, text: str) -> Action:
    """Turn what a player typed or picked for /tank discard into a discard or keep action."""
    typed = text.strip()
    if typed.lower() in KEEP_WORDS or typed.lower() == _("Keep all my fish").lower():
        return {"type": "keep"}
    choices = discard_choices(state, seat)
    if not choices:
        return {"type": "discard", "card": typed}
    held = {card.lower(): card for card in GAME.discard_options(state, seat)}  # every copy, by its own id
    if typed.lower() in held:
        return {"type": "discard", "card": held[typed.lower()]}
    wanted = typed.lower().split(" (")[0]
    for name, card, _held in choices:
        if name.lower() == wanted:
            return {"type": "discard", "card": card}
    raise UserError(
        _(
            "You hold no fish called {typed} that you may discard: pick one from the list, or keep all.",
            typed=quote(typed),
        )
    )


def _noted(action: Action) -> str:
    """Return the private note confirming a discard choice."""
    if action.get("type") == "keep":
        return _("You kept all your fish. {command} shows your aquarium at any time.", command=command("game hand"))
    return _("Discarded. {command} shows your updated aquarium at any time.", command=command("game hand"))


def split_groups(state: TankState, seat: int) -> list[tuple[str, str]]:
    """Return (label, number) for each group `seat` may split now, numbered as the picture shows them."""
    letters = sorted({a["group"] for a in GAME.legal_actions(state, seat) if a["type"] == "split"})
    groups = {g["letter"]: g for g in GAME.view(state, None)["groups"]}
    return [(_group_label(g, groups[g]), label(g)) for g in letters]


def _group_label(letter: str, group: dict[str, Any]) -> str:
    """Return a group's number with its shape and size, e.g. "2 (2×4, 8 cards)"."""
    shape = _group_shape(group)
    return ngettext(
        "{group} ({shape}, {n} card)", "{group} ({shape}, {n} cards)", group["size"], group=label(letter), shape=shape
    )


def split_lines(state: TankState, seat: int, group: str) -> list[tuple[str, str]]:
    """Return (label, line) for each line `seat` may cut `group` (its number, or letter) along now."""
    view = GAME.view(state, None)
    info = next((g for g in view["groups"] if g["letter"] == from_label(group)), None)
    if info is None:
        return []
    lines = [
        a["line"] for a in GAME.legal_actions(state, seat) if a["type"] == "split" and a["group"] == info["letter"]
    ]
    return [(f"{line} ({_split_hint(info, line)})", line) for line in lines]


def take_groups(state: TankState, seat: int) -> list[tuple[str, str]]:
    """Return (label, number) for each group `seat` may take now, numbered as the picture shows them."""
    view = GAME.view(state, None)
    groups = {g["letter"]: g for g in view["groups"]}
    takes = [a["group"] for a in GAME.legal_actions(state, seat) if a["type"] == "take"]
    return [(f"{label(g)} ({_take_hint(view, groups[g])})", label(g)) for g in takes]
