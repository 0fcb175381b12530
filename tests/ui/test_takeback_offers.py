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
    assert likely_misclick(TAP, "fish", 12, {"type": "place", "tile": "A1"})
    assert likely_misclick(TAP, "tank", 3, {"type": "take", "group": "A"})
    assert likely_misclick(TAP, "flippers", 40, {"type": "play", "card": "m-flip"})
    assert not likely_misclick(TYPED, "fish", 12, {"type": "place", "tile": "A1"})  # typed, and seen before sent
    assert not likely_misclick(TAP, "fish", 1, {"type": "move"})  # the only move there was
    assert not likely_misclick(TAP, "tank", 3, {"type": "discard", "card": "x"})  # a private Gourami discard
    assert not likely_misclick(TAP, "tank", 3, {"type": "keep"})
    assert not likely_misclick(TAP, "flippers", 10, {"type": "discard", "cards": ["a", "b"]})


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
