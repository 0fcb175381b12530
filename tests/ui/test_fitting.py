"""Every message fits Discord's limits: each translation at its longest, and whatever is over is fitted."""

from __future__ import annotations

import re
import string
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters

from i18n import LANGUAGES
from i18n.catalogs import LOCALES, po_files, read_catalog
from ui import fitting
from ui.components import button, select, view_of
from ui.fitting import fitted
from ui.text import BUTTON_LABEL, EMBED_TITLE, LABEL, MESSAGE, PLACEHOLDER

STATED = re.compile(r"(\d+)-(\d+) characters")
LONGEST_NAME = "W" * 32  # Discord's longest display name, in its widest letter
LONG = {
    "mention": "<@1234567890123456789>",
    "link": "https://discord.com/channels/1234567890123456789/1234567890123456789/1234567890123456789",
    "names": ", ".join([LONGEST_NAME] * 5) + " and " + LONGEST_NAME,
    "people": " ".join(["<@1234567890123456789>"] * 6),
}


def long_value(name: str) -> str:
    """Return the longest value a placeholder of this name takes in practice."""
    if name in LONG:
        return LONG[name]
    if name in ("n", "count", "most", "id", "number", "version", "low", "high", "seconds", "score", "page", "pages"):
        return "1,000,000"
    return LONGEST_NAME if "name" in name or name in ("player", "who", "host") else "W" * 100


def filled(text: str) -> str:
    """Fill every named placeholder of a message with its longest value."""
    names = {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field}
    try:
        return text.format(**{name: long_value(name) for name in names})
    except (IndexError, KeyError, ValueError):
        return text  # a message without named placeholders (its braces are literal)


def messages() -> list[tuple[str, str, str, Any]]:
    """Return (language, file, comment, form) for every form of every message, the English msgids included."""
    found = []
    for language in ("en", *[code for code in LANGUAGES if code != "en"]):
        paths = sorted((LOCALES / "templates").glob("*.pot")) if language == "en" else po_files(language)
        for path in paths:
            for message in read_catalog(path, "en" if language == "en" else language):
                if not message.id:
                    continue
                source = message.id if language == "en" else message.string
                forms = [source] if isinstance(source, str) else list(source)
                comment = " ".join(message.auto_comments)
                found += [(language, path.name, comment, form) for form in forms if form]
    return found


def test_every_message_at_its_longest_fits_where_discord_shows_it_in_every_language() -> None:
    over = []
    checked = 0
    for language, file, comment, form in messages():
        text = filled(form)
        stated = STATED.search(comment)
        limit = int(stated.group(2)) if stated else MESSAGE
        checked += 1
        if len(text) > limit and not file.startswith("rules"):  # the rulebook is laid out in embeds, split to fit
            over.append(f"{language} {file} ({len(text)} > {limit}): {form[:60]!r}")
    assert checked > 3000
    assert not over, "\n".join(over)


def test_a_message_over_discords_limits_is_fitted_before_it_is_sent(caplog: pytest.LogCaptureFixture) -> None:
    embed = discord.Embed(title="T" * 300, description="D " * 2500)
    embed.add_field(name="N" * 300, value="V " * 600)
    view = view_of([button(1, 2, "x", "ok"), select(1, 2, "y", "pick", [("a", "a")])])
    assert view is not None
    inner: Any = view.children[0]
    inner.item.label = "L" * 90  # as a translation might make it after the component was built
    view.children[1].item.placeholder = "P" * 200  # type: ignore[attr-defined]
    fitting._warned.clear()
    build = fitted(handle_message_parameters)
    params = build("word " * 600, embeds=[embed], view=view)
    payload = params.payload
    assert len(payload["content"]) <= MESSAGE and payload["content"].endswith("…")
    sent = payload["embeds"][0]
    assert len(sent["title"]) <= EMBED_TITLE and len(sent["description"]) <= 4096
    assert len(sent["fields"][0]["name"]) <= 256 and len(sent["fields"][0]["value"]) <= 1024
    components = payload["components"][0]["components"]
    assert len(components[0]["label"]) <= BUTTON_LABEL
    assert len(payload["components"][1]["components"][0]["placeholder"]) <= PLACEHOLDER
    assert all(len(o["label"]) <= LABEL for o in payload["components"][1]["components"][0]["options"])
    assert "Discord allows 2000" in caplog.text
    assert fitted(build) is build  # wrapping twice changes nothing
