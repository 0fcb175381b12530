"""Check that no message names a slash command by its English path where its reader's client shows another.

Messages name commands through a `{command}` placeholder (ui/mentions.py: a mention, else the path in the reader's
language, from i18n/commands.py); a path written into a message or a translation would stay English.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from i18n import ENGLISH, LANGUAGES, using
from i18n.catalogs import TEMPLATES, po_files
from i18n.commands import command_path

PATH = re.compile(r"/(game|fish|tank|flippers)\b((?: [a-z]+)?)")
"""An English command path in running text: "/game", "/game new", "/tank discard"."""


def _texts(message: object) -> list[str]:
    """Return every form of a catalog entry's text (one, or each plural form)."""
    value = message.string
    return [t for t in (value if isinstance(value, (tuple, list)) else (value,)) if t]


def test_no_message_writes_a_command_path_in_its_text() -> None:
    written = [
        f"{template.name}: {message.id}"
        for template in sorted(TEMPLATES.glob("*.pot"))
        if template.stem != "commands"
        for message in read_po(template.open("rb"))
        for text in ([message.id] if isinstance(message.id, str) else list(message.id))
        if text and PATH.search(text)
    ]
    assert written == [], "name a command with a {command} placeholder (ui.mentions.command) instead"


@pytest.mark.parametrize("language", sorted(set(LANGUAGES) - {ENGLISH}))
def test_no_translation_names_a_command_by_its_english_path(language: str) -> None:
    english = []
    for path in po_files(language):
        for message in read_po(path.open("rb")):
            for text in _texts(message):
                for found in PATH.finditer(text):
                    words = (found.group(1) + found.group(2)).strip()
                    with using(language):
                        local = command_path(words)
                    if local != "/" + words:
                        english.append(f"{path.name}: {text!r} says /{words}, its readers see {local}")
    assert english == []
