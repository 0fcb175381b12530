"""Check where a takeback is offered after a move, and that an offer is greyed out once its game is over."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from storage.database import ACTIVE, FINISHED, GameRow
from ui.takeback_offers import Offer, Offers, likely_misclick

TAP = cast(discord.Interaction, SimpleNamespace(type=discord.InteractionType.component))
TYPED = cast(discord.Interaction, SimpleNamespace(type=discord.InteractionType.application_command))


def test_a_takeback_is_offered_after_a_tap_among_several_moves_that_was_not_a_private_choice() -> None:
    assert likely_misclick(TAP, "fish", {"type": "place", "tile": "A1"}, lambda: 12)
    assert likely_misclick(TAP, "tank", {"type": "take", "group": "A"}, lambda: 3)
    assert likely_misclick(TAP, "flippers", {"type": "play", "card": "m-flip"}, lambda: 40)
    assert not likely_misclick(TYPED, "fish", {"type": "place", "tile": "A1"}, lambda: 12)  # typed
    assert not likely_misclick(TAP, "fish", {"type": "move"}, lambda: 1)  # the only move there was
    assert not likely_misclick(TAP, "tank", {"type": "discard", "card": "x"}, lambda: 3)  # a private Gourami discard
    assert not likely_misclick(TAP, "tank", {"type": "keep"}, lambda: 3)
    assert not likely_misclick(TAP, "flippers", {"type": "discard", "cards": ["a", "b"]}, lambda: 10)


class Message:
    """Record how an offer's message was edited."""

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []

    async def edit(self, **changes: Any) -> None:
        """Record an edit."""
        self.edits.append(changes)


@pytest.mark.parametrize(("status", "version", "greyed"), [(ACTIVE, 7, False), (ACTIVE, 8, True), (FINISHED, 7, True)])
async def test_an_offer_is_greyed_out_on_the_next_board_and_when_the_game_ends(
    status: str, version: int, greyed: bool
) -> None:
    offers = Offers(cast(Any, None), cast(Any, None), cast(Any, None))
    message = Message()
    shown = Offer(cast(discord.WebhookMessage, message), 5, 7, "de", 1_000)
    offers._live[5] = [shown]
    offers.on_board(cast(GameRow, SimpleNamespace(id=5, version=version, status=status)))
    await asyncio.gather(*offers._tasks)
    assert bool(message.edits) is greyed
    if greyed:
        (edit,) = message.edits
        assert edit["content"] == "Dieser Zug kann nicht mehr zurückgenommen werden."
        assert all(item.item.disabled for item in edit["view"].children)
        offers.on_board(cast(GameRow, SimpleNamespace(id=5, version=version + 1, status=status)))
        await asyncio.gather(*offers._tasks)
        assert len(message.edits) == 1  # greyed once
