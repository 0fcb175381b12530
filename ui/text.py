"""Fit text into Discord's length limits without silent cuts: split long text, shorten labels at a word."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import discord

from i18n import _, ngettext

MESSAGE = 2000  # message content
EMBED_DESCRIPTION = 4096
EMBED_TOTAL = 6000  # every title, description, field and footer of one message's embeds together
EMBED_TITLE = 256
EMBEDS_PER_MESSAGE = 10
FIELD_VALUE = 1024
LABEL = 100  # select option label, value and description; choice name and value; thread name
PLACEHOLDER = 150  # select placeholder
BUTTON_LABEL = 80
ALT_TEXT = 1024
ELLIPSIS = "…"


def shorten(text: str, limit: int) -> str:
    """Return `text` if it fits in `limit` characters, else cut at a word boundary and end it with an ellipsis."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return text[:limit]
    cut = text[: limit - len(ELLIPSIS) + 1]
    space = cut.rfind(" ")
    cut = cut[:space] if space > limit // 2 else cut[:-1]
    return cut.rstrip(" ,;:-—·") + ELLIPSIS


def fit_first(candidates: Iterable[str], limit: int) -> str:
    """Return the first of `candidates` (most detailed first) that fits in `limit` characters, else the last, whole.

    For text shortened by priority: each candidate leaves out more of the least important detail, so what the text
    is for stays and nothing is cut off mid-way.
    """
    text = ""
    for text in candidates:
        if len(text) <= limit:
            return text
    return text


def split_text(text: str, limit: int) -> list[str]:
    """Split `text` into pieces of at most `limit` characters, at line breaks, else spaces, else anywhere."""
    pieces: list[str] = []
    rest = text.strip("\n")
    while len(rest) > limit:
        window = rest[: limit + 1]
        cut = window.rfind("\n\n")
        if cut <= limit // 2:
            cut = window.rfind("\n")
        if cut <= limit // 2:
            cut = window.rfind(" ")
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip("\n ")
    if rest:
        pieces.append(rest)
    return pieces


def more_lines(n: int) -> str:
    """Say that `n` more lines were left out."""
    return ngettext("…and {n} more", "…and {n} more", n)


def lines_within(
    lines: Sequence[str], limit: int = MESSAGE, *, keep_last: int = 0, more: str | Callable[[int], str] = more_lines
) -> str:
    """Join lines so they fit in `limit`: leave out whole lines before the last `keep_last` and say how many.

    `more` words the note about the lines left out: a function of their number, or a "{n}" template.
    """
    full = "\n".join(lines)
    if len(full) <= limit:
        return full
    head, tail = list(lines[: len(lines) - keep_last]), list(lines[len(lines) - keep_last :])
    while len(head) > 1:
        head.pop()
        left_out = len(lines) - len(head) - len(tail)
        note = more(left_out) if callable(more) else more.format(n=left_out)
        text = "\n".join([*head, note, *tail])
        if len(text) <= limit:
            return text
    return shorten(full, limit)


def embed_messages(title: str, text: str, colour: int | None = None) -> list[list[discord.Embed]]:
    """Lay long text out as embeds, grouped into messages that each stay within Discord's embed limits."""
    title = shorten(title, EMBED_TITLE)
    pieces = split_text(text, EMBED_DESCRIPTION)
    messages: list[list[discord.Embed]] = []
    size = 0
    for i, piece in enumerate(pieces):
        heading = title if i == 0 else _("{title} (continued)", title=title)
        heading = shorten(heading, EMBED_TITLE)
        embed = discord.Embed(title=heading, description=piece, colour=colour)
        cost = len(heading) + len(piece)
        if not messages or size + cost > EMBED_TOTAL or len(messages[-1]) >= EMBEDS_PER_MESSAGE:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += cost
    return messages
