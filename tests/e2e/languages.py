"""Note the language each Discord message was written in, from inside the bot, for the language tests.

Every REST call the bot makes (channel posts, DMs, edits, interaction answers and follow-ups) is recorded with
the language current in the task that made it (`i18n.current()`), and matched to the fake Discord's message
it created or edited. So a test tells in which language a message was written whether or not its strings are
translated yet.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

import pytest
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

from i18n import current
from tests.harness import FakeDiscord, FakeMessage

INTERACTION = re.compile(r"/interactions/(\d+)/")
WORDS = ("content", "embeds", "components", "attachments")
"""What a call must carry to write words (a "thinking…" placeholder carries none: the client words it)."""


def body(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON a REST call sends, from discord.py's json, payload or multipart arguments."""
    found = kwargs.get("json") or kwargs.get("payload")
    if found is None:
        for part in kwargs.get("form") or kwargs.get("multipart") or ():
            if part.get("name") == "payload_json":
                found = json.loads(part["value"])
    if isinstance(found, dict) and isinstance(found.get("data"), dict):
        return found["data"]  # an interaction callback wraps the message
    return found if isinstance(found, dict) else {}


class Languages:
    """Collect, per fake message id, the languages the bot wrote it in (one per post or edit)."""

    def __init__(self) -> None:
        self.by_message: dict[int, list[str]] = defaultdict(list)
        self.by_interaction: dict[int, list[str]] = defaultdict(list)

    def note(self, method: str, path: str, sent: dict[str, Any], result: Any) -> None:
        """Record the current language for the message a call created or edited (or the interaction it answered)."""
        if method in ("GET", "DELETE") or not any(key in sent for key in WORDS):
            return  # reading, deleting or deferring writes no words
        language = current()
        message = result.get("resource", {}).get("message") if isinstance(result, dict) else None
        if message is None and isinstance(result, dict) and "channel_id" in result and "id" in result:
            message = result
        if message is not None:
            self.by_message[int(message["id"])].append(language)
        elif found := INTERACTION.search(path):
            self.by_interaction[int(found.group(1))].append(language)

    def of(self, message: FakeMessage) -> set[str]:
        """Return every language a message was written in (its post and each edit)."""
        found = set(self.by_message.get(message.id, ()))
        if message.interaction_id is not None and not found:
            found |= set(self.by_interaction.get(message.interaction_id, ()))
        return found


def record_languages(monkeypatch: pytest.MonkeyPatch) -> Languages:
    """Patch discord.py's REST layers to note the language of every call; return the notes."""
    notes = Languages()
    bot_request = HTTPClient.request
    hook_request = AsyncWebhookAdapter.request

    async def request(self: HTTPClient, route: Any, **kwargs: Any) -> Any:
        result = await bot_request(self, route, **kwargs)
        notes.note(route.method, route.path, body(kwargs), result)
        return result

    async def webhook_request(self: AsyncWebhookAdapter, route: Any, *args: Any, **kwargs: Any) -> Any:
        result = await hook_request(self, route, *args, **kwargs)
        notes.note(route.method, route.path, body(kwargs), result)
        return result

    monkeypatch.setattr(HTTPClient, "request", request)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook_request)
    return notes


def wrong_languages(fake: FakeDiscord, notes: Languages, *, public: str, private: dict[int, str]) -> list[str]:
    """List every message not written in the language its readers read.

    Messages in server channels are in `public` (the game's language); ephemeral replies in the language of
    the user who interacted and DMs in the recipient's, both from `private` (user id -> language).
    """
    wrong = []
    dm_users = {channel.id: user_id for user_id, channel in fake.dm_channels.items()}
    for message in fake.messages.values():
        if message.author.id != fake.bot_user.id:
            continue
        languages = notes.of(message)
        if message.channel_id in dm_users:
            wanted, where = private[dm_users[message.channel_id]], "DM"
        elif message.ephemeral and message.interaction_user is not None:
            wanted, where = private[message.interaction_user.id], "ephemeral reply"
        else:
            wanted, where = public, "channel post"
        if languages != {wanted}:
            text = (message.content or str(message.embeds))[:80]
            wrong.append(f"{where} {message.id} written in {sorted(languages)}, not {wanted!r}: {text!r}")
    return wrong
