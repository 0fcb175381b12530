"""Say a suggested action as advice to the player who will make it ("Move your penguin from E4 to B3")."""

from __future__ import annotations

from typing import Any

from engine.base import Action
from engine.words import join_list
from i18n import _, pgettext


def advice(game_key: str, state: Any, seat: int, action: Action) -> str:
    """Return the action as an instruction in the current language, without a final full stop ("" if unknown)."""
    kind = action.get("type")
    if game_key == "fish":
        if kind == "place":
            return _("Place a penguin on {tile}", tile=action["tile"])
        if kind == "move":
            return _("Move your penguin from {start} to {end}", start=action["from"], end=action["to"])
    if game_key == "tank":
        return _tank(state, seat, action)
    if game_key == "flippers":
        return _flippers(state, seat, action)
    return ""


def _tank(state: Any, seat: int, action: Action) -> str:
    """Advise a Tank action: split, take, a Gourami discard, or keeping the fish."""
    from engine.tank.grid import label
    from engine.tank.names import card_name

    kind = action.get("type")
    if kind == "split":
        return pgettext("advice", "Split group {group} along {line}", group=label(action["group"]), line=action["line"])
    if kind == "take":
        return pgettext("advice", "Take group {group}", group=label(action["group"]))
    if kind == "discard":
        return _("Discard your {card} with your Gourami", card=card_name(action["card"]))
    if kind == "keep":
        return _("Keep all your fish (discard nothing)")
    return ""


def _flippers(state: Any, seat: int, action: Action) -> str:
    """Advise a Flippers action: the Leader, the setup discards (naming the cards kept), a card, an activation."""
    from engine.flippers.names import card_name, direction

    kind = action.get("type")
    if kind == "leader":
        facing = direction(action["facing"])
        return _("Place your Leader on {cell} facing {direction}", cell=action["cell"], direction=facing)
    if kind == "discard":
        dropped = list(action["cards"])
        kept = list(state.hands[seat])
        for card in dropped:
            if card in kept:
                kept.remove(card)
        names = {"dropped": [card_name(c) for c in dropped], "kept": [card_name(c) for c in kept]}
        values = {key: join_list(cards) for key, cards in names.items()}
        if kept:
            return _("Discard {dropped} and keep {kept}", **values)
        return _("Discard {dropped}", **values)
    if kind == "play":
        return _(
            "Play your {card} on {cell} facing {direction}",
            card=card_name(action["card"]),
            cell=action["cell"],
            direction=direction(action["facing"]),
        )
    if kind == "activate":
        return _("Activate your {card} now", card=card_name(action["card"]))
    return ""
