"""Check every message the bot sends or edits against Discord's limits, and fit what would be refused.

Discord refuses a whole message when one part is too long (content over 2,000 characters, an embed title over
256, a button label over 80...), so a long translation or a long name would make a refusal, a hint or a board
never arrive. Every message discord.py builds goes through its `handle_message_parameters` (channel messages,
follow-ups and webhook edits) or `interaction_message_response_params` (an interaction's own answer); `install`
wraps both so each part is checked there and shortened at a word, with an ellipsis, when it is over (logged once
per kind of part, so a translator can fix it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import wraps
from importlib import import_module
from typing import Any

import discord
from discord.utils import MISSING

from ui.text import (
    BUTTON_LABEL,
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    EMBED_TOTAL,
    EMBEDS_PER_MESSAGE,
    FIELD_VALUE,
    LABEL,
    MESSAGE,
    PLACEHOLDER,
    shorten,
)

log = logging.getLogger(__name__)

FIELD_NAME = 256
FOOTER = 2048
AUTHOR = 256
FIELDS = 25
MODULES = ("discord.http", "discord.abc", "discord.message", "discord.channel", "discord.interactions")
WEBHOOKS = "discord.webhook.async_"
_warned: set[str] = set()


def _over(part: str, text: str, limit: int) -> str:
    """Return `text` shortened to `limit`, saying once per part that such a text was over its limit."""
    if len(text) <= limit:
        return text
    if part not in _warned:
        _warned.add(part)
        log.warning(
            "a message's %s held %d characters (Discord allows %d): shortened; %.80r", part, len(text), limit, text
        )
    return shorten(text, limit)


def fit_content(content: str | None) -> str | None:
    """Return message content within 2,000 characters."""
    return content if content is None else _over("content", str(content), MESSAGE)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Fit one embed's title, description, fields, footer and author within their limits (in place)."""
    if embed.title:
        embed.title = _over("embed title", embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = _over("embed description", embed.description, EMBED_DESCRIPTION)
    fields = embed.fields[:FIELDS]
    if len(embed.fields) > FIELDS:
        _over("embed fields", "x" * len(embed.fields), FIELDS)
    embed.clear_fields()
    for field in fields:
        embed.add_field(
            name=_over("embed field name", field.name or "", FIELD_NAME),
            value=_over("embed field value", field.value or "", FIELD_VALUE),
            inline=bool(field.inline),
        )
    if embed.footer.text:
        embed.set_footer(text=_over("embed footer", embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=_over("embed author", embed.author.name, AUTHOR), url=embed.author.url)
    return embed


def fit_embeds(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    """Fit a message's embeds: at most 10, each within its limits and 6,000 characters together."""
    fitted = [fit_embed(e) for e in embeds[:EMBEDS_PER_MESSAGE]]
    if len(embeds) > EMBEDS_PER_MESSAGE:
        _over("embeds", "x" * len(embeds), EMBEDS_PER_MESSAGE)
    while sum(len(e) for e in fitted) > EMBED_TOTAL:
        longest = max(fitted, key=lambda e: len(e.description or ""))
        over = sum(len(e) for e in fitted) - EMBED_TOTAL
        text = longest.description or ""
        if not text:
            break  # only titles and fields are left: Discord's own limits on each keep them small
        longest.description = _over("embeds' total", text, max(1, len(text) - over))
    return fitted


def fit_view(view: Any) -> None:
    """Fit the labels, placeholders and options of a view's buttons and selects (in place)."""
    for item in getattr(view, "children", ()):
        inner = getattr(item, "item", item)  # a dynamic item wraps its button or select
        if isinstance(inner, discord.ui.Button) and inner.label:
            inner.label = _over("button label", inner.label, BUTTON_LABEL)
        elif isinstance(inner, discord.ui.Select):
            if inner.placeholder:
                inner.placeholder = _over("select placeholder", inner.placeholder, PLACEHOLDER)
            for option in inner.options:
                option.label = _over("option label", option.label, LABEL)
                if option.description:
                    option.description = _over("option description", option.description, LABEL)


def fitted(build: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap discord.py's message builder so that each message it builds is fitted first."""
    if getattr(build, "fits_discord", False):
        return build

    @wraps(build)
    def build_fitted(*args: Any, **parts: Any) -> Any:
        if args:  # handle_message_parameters takes the content first; the interaction builder, by name
            args = (fit_content(str(args[0])) if args[0] not in (MISSING, None) else args[0], *args[1:])
        if parts.get("content") not in (MISSING, None):
            parts["content"] = fit_content(str(parts["content"]))
        if parts.get("embed") not in (MISSING, None):
            parts["embed"] = fit_embed(parts["embed"])
        if parts.get("embeds") not in (MISSING, None):
            parts["embeds"] = fit_embeds(parts["embeds"])
        if parts.get("view") not in (MISSING, None):
            fit_view(parts["view"])
        return build(*args, **parts)

    build_fitted.fits_discord = True  # type: ignore[attr-defined]
    return build_fitted


def install() -> None:
    """Fit every message discord.py sends from now on (idempotent)."""
    for name in (*MODULES, WEBHOOKS):
        module = import_module(name)
        module.handle_message_parameters = fitted(module.handle_message_parameters)  # type: ignore[attr-defined]
    for name in (WEBHOOKS, "discord.interactions"):  # the builder of an interaction's own response
        module = import_module(name)
        module.interaction_message_response_params = fitted(  # type: ignore[attr-defined]
            module.interaction_message_response_params  # type: ignore[attr-defined]
        )
