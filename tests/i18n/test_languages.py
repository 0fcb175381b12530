"""Discord's locales land on the shipped catalogs."""

from __future__ import annotations

import pytest

from i18n.languages import from_discord, known


@pytest.mark.parametrize(
    ("locale", "code"),
    [
        ("de", "de"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("pt-BR", "pt_BR"),
        ("ja", "ja"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_a_discord_locale_reads_its_catalog_or_english(locale: str | None, code: str) -> None:
    assert from_discord(locale) == code


def test_a_saved_language_the_bot_no_longer_ships_reads_english() -> None:
    assert known("xx") == "en"
    assert known("ja") == "ja"
