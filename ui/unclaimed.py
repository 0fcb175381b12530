"""Answer the presses and form submissions no handler of the bot claims (forged, or from a removed feature).

discord.py drops a component interaction whose custom_id matches no persistent view and no dynamic item (or a
dynamic item's pattern, but no component of the message it came from), and a modal nobody waits for; Discord
then shows "This interaction failed". Every interaction the bot receives gets an answer: these get a private
one saying the button no longer works and nothing changed. The check mirrors discord.py's own dispatch, in the
same event, so a press some handler takes is never answered twice.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from i18n import N_, _
from ui.errors import reply_ephemeral
from ui.mentions import command

log = logging.getLogger(__name__)

COMPONENT, MODAL_SUBMIT = 3, 5
NO_LONGER_VALID = N_(
    "This button or menu is no longer valid, so nothing was changed. {command} shows the current board."
)


def _on_message(interaction: discord.Interaction, component_type: int, custom_id: str) -> bool:
    """Tell whether the interaction's message carries a component of this type and custom_id."""
    message = interaction.message
    if message is None:
        return False
    view = discord.ui.View.from_message(message, timeout=None)
    view.stop()  # only read: nothing listens to this copy
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


def claimed(store: Any, interaction: discord.Interaction) -> bool:
    """Tell whether discord.py's view store (`store`) hands this component press to a handler."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id, component_type = str(data.get("custom_id", "")), int(data.get("component_type", 0))
    key = (component_type, custom_id)
    message_id = interaction.message.id if interaction.message is not None else None
    if message_id is not None and key in store._views.get(message_id, {}):
        return True
    if key in store._views.get(None, {}):
        return True
    return any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items) and _on_message(
        interaction, component_type, custom_id
    )


async def answer_unclaimed(client: discord.Client, interaction: discord.Interaction) -> None:
    """Answer privately a press or form no handler takes; leave every other interaction alone."""
    store = client._connection._view_store
    if interaction.type.value == COMPONENT:
        if claimed(store, interaction):
            return
    elif interaction.type.value == MODAL_SUBMIT:
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if custom_id in store._modals:
            return
    else:
        return
    flow = getattr(client, "flow", None)
    if flow is not None:
        await flow.readers.enter(interaction)  # answer in the presser's language
    log.info("interaction %s carries a custom_id no handler takes: %.100r", interaction.id, interaction.data)
    await reply_ephemeral(interaction, _(NO_LONGER_VALID, command=command("game status")))
