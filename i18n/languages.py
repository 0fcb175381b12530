"""Name the languages the bot speaks and map Discord's locales onto them."""

from __future__ import annotations

ENGLISH = "en"

LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "pt_BR": "Português do Brasil",
    "ja": "日本語",
}
"""Every shipped language by catalog code, with its name in itself (what the language menus show)."""

DISCORD_LOCALES: dict[str, tuple[str, ...]] = {
    "en": ("en-US", "en-GB"),
    "de": ("de",),
    "es": ("es-ES", "es-419"),
    "pt_BR": ("pt-BR",),
    "ja": ("ja",),
}
"""Discord's locale values each catalog serves (es-419 reads the Spanish catalog)."""

_BY_DISCORD = {locale.lower(): code for code, locales in DISCORD_LOCALES.items() for locale in locales}


def from_discord(locale: object) -> str:
    """Return the catalog code for a Discord locale ("es-419" -> "es"), or English for one not shipped."""
    value = str(getattr(locale, "value", locale) or "").strip().lower().replace("_", "-")
    if value in _BY_DISCORD:
        return _BY_DISCORD[value]
    base = value.split("-", 1)[0]
    return _BY_DISCORD.get(base, ENGLISH)


def known(code: str | None) -> str:
    """Return `code` when it is a shipped language, else English (a saved value from an older bot stays safe)."""
    return code if code in LANGUAGES else ENGLISH
