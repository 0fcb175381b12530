"""A message an interaction sent is edited through that interaction while its token lives, else by the caller."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord

from ui.followups import MARGIN_S, ORIGINAL, TOKEN_LIFE_S, Followups


class Webhook:
    """Record follow-up edits; refuse them all when told to."""

    def __init__(self, refuse: bool = False) -> None:
        self.refuse = refuse
        self.edits: list[tuple[Any, dict[str, Any]]] = []

    async def edit_message(self, target: Any, **changes: Any) -> None:
        if self.refuse:
            raise discord.HTTPException(SimpleNamespace(status=401, reason="expired"), {"code": 50027})  # type: ignore[arg-type]
        self.edits.append((target, changes))


class Interaction:
    """An interaction Discord created `created` seconds ago, its follow-ups sent through `webhook`."""

    def __init__(self, created: float, webhook: Webhook, *, pressed_type: Any = None, ephemeral: bool = False) -> None:
        self.created_at = datetime.now(UTC) - timedelta(seconds=created)  # `created` seconds ago
        self.followup = webhook
        self.originals: list[dict[str, Any]] = []
        self.response = SimpleNamespace(type=pressed_type)
        self.message = SimpleNamespace(id=99, flags=SimpleNamespace(ephemeral=ephemeral))

    async def edit_original_response(self, **changes: Any) -> None:
        self.originals.append(changes)


async def test_a_follow_up_is_edited_through_its_interaction_until_its_token_nears_expiry() -> None:
    now = [1000.0]
    followups = Followups(clock=lambda: now[0])
    webhook = Webhook()
    followups.sent(7, Interaction(0.0, webhook))  # type: ignore[arg-type]
    assert await followups.edit(7, content="edited")
    assert webhook.edits == [(7, {"content": "edited"})]
    assert not await followups.edit(8, content="never sent by an interaction")
    now[0] = 1000.0 + TOKEN_LIFE_S - MARGIN_S + 1
    assert not await followups.edit(7, content="too late") and len(webhook.edits) == 1
    assert followups.owner(7) is None


async def test_a_refused_edit_leaves_the_message_to_the_channel_from_then_on() -> None:
    followups = Followups(clock=lambda: 1000.0)
    followups.sent(7, Interaction(0.0, Webhook(refuse=True)))  # type: ignore[arg-type]
    assert not await followups.edit(7, content="edited")
    assert followups.owner(7) is None


async def test_a_board_pressed_and_updated_is_edited_as_the_press_original_response() -> None:
    followups = Followups(clock=lambda: 1000.0)
    update = discord.InteractionResponseType.deferred_message_update
    pressed = Interaction(0.0, Webhook(), pressed_type=update)
    followups.pressed(pressed)  # type: ignore[arg-type]
    assert await followups.edit(99, content="the turn goes on")
    assert pressed.originals == [{"content": "the turn goes on"}]
    assert followups.owner(99) == (pressed, ORIGINAL)
    thinking = Followups(clock=lambda: 1000.0)
    deferred = discord.InteractionResponseType.deferred_channel_message
    thinking.pressed(Interaction(0.0, Webhook(), pressed_type=deferred))  # type: ignore[arg-type]
    private = Followups(clock=lambda: 1000.0)
    private.pressed(Interaction(0.0, Webhook(), pressed_type=update, ephemeral=True))  # type: ignore[arg-type]
    assert thinking.owner(99) is None and private.owner(99) is None  # its original is not the board
