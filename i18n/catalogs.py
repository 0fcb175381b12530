"""Load every language's catalogs, compiled in memory from the .po sources, and look strings up in them."""

from __future__ import annotations

import gettext
import io
import threading
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from i18n.languages import ENGLISH, LANGUAGES

LOCALES = Path(__file__).resolve().parent.parent / "locales"
TEMPLATES = LOCALES / "templates"

_lock = threading.Lock()


def po_files(language: str) -> list[Path]:
    """Return the .po sources of one language, one per domain."""
    return sorted((LOCALES / language / "LC_MESSAGES").glob("*.po"))


def read_catalog(path: Path, language: str) -> Catalog:
    """Return one .po file as a Babel catalog."""
    with path.open("rb") as source:
        return read_po(source, locale=language.replace("-", "_"))


def complete(string: str | tuple[str, ...] | list[str]) -> bool:
    """Return whether a translation is there in every plural form."""
    if isinstance(string, (tuple, list)):
        return bool(string) and all(string)
    return bool(string)


def merged(language: str) -> Catalog:
    """Return every domain of `language` in one catalog, leaving out fuzzy and untranslated entries."""
    whole = Catalog(locale=language)
    for path in po_files(language):
        for message in read_catalog(path, language):
            if message.id and not message.fuzzy and complete(message.string):
                whole.add(message.id, message.string, context=message.context)
    return whole


@cache
def translations(language: str) -> gettext.NullTranslations:
    """Return the compiled translations of `language` (plain English for English and unknown codes)."""
    if language == ENGLISH or language not in LANGUAGES:
        return gettext.NullTranslations()
    with _lock:
        buffer = io.BytesIO()
        write_mo(buffer, merged(language))
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)
