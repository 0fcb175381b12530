"""Every character a translation catalog holds is drawn by a shipped font, in regular and in bold."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from i18n.catalogs import LOCALES, read_catalog
from render.common import EMOJI, FONT_DIR, FONT_FILES, face_of

REBUILD = (
    "rebuild the CJK subset: cd /tmp && apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb /tmp/noto; "
    "then .venv/bin/python scripts/build_fonts.py --cjk-only /tmp/noto (see the script's docstring)"
)
CATALOGS = sorted(LOCALES.glob("*/LC_MESSAGES/*.po"))


@cache
def _bold_coverage(face: str) -> frozenset[int]:
    """Return the code points a face's bold weight maps, from coverage.json."""
    data = json.loads((FONT_DIR / "coverage.json").read_text())
    return frozenset(p for first, last in data[FONT_FILES[face][1]] for p in range(first, last + 1))


def undrawable(path: Path) -> dict[str, str]:
    """Return each printable character of a catalog's translations that no shipped font draws, with why."""
    language = path.parent.parent.name
    found: dict[str, str] = {}
    for message in read_catalog(path, language):
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        for char in "".join(text for text in strings if text):
            if not char.isprintable() or char in found:
                continue
            face = face_of(char)
            if face is None:
                found[char] = f"U+{ord(char):04X} in {message.id!r}: in no shipped font"
            elif face != EMOJI and ord(char) not in _bold_coverage(face):
                found[char] = f"U+{ord(char):04X} in {message.id!r}: in the {face} face but not its bold weight"
    return found


def test_there_are_catalogs_to_check() -> None:
    assert {path.parent.parent.name for path in CATALOGS} >= {"de", "es", "pt_BR", "ja"}


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_character_of_a_catalog_is_drawn_by_a_shipped_font(path: Path) -> None:
    missing = undrawable(path)
    assert not missing, f"{path}: " + "; ".join(missing.values()) + f". To fix: {REBUILD}"


def test_a_character_no_font_draws_is_reported(tmp_path: Path) -> None:
    catalog = tmp_path / "ja" / "LC_MESSAGES" / "render.po"
    catalog.parent.mkdir(parents=True)
    catalog.write_text('msgid ""\nmsgstr ""\n\nmsgid "Turn"\nmsgstr "手番 \U00012000 🐧 Zug"\n', encoding="utf-8")
    assert set(undrawable(catalog)) == {"\U00012000"}
    assert face_of("🐧") == EMOJI
