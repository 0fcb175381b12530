"""Say which source files feed which catalog domain, and how their strings are found."""

from __future__ import annotations

from dataclasses import dataclass

KEYWORDS: dict[str, object] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
"""The marking functions `pybabel extract` looks for (i18n's own names, with gettext's argument positions)."""

COMMENT_TAGS = ("TRANSLATORS:",)


@dataclass(frozen=True)
class Source:
    """Files matched by a glob (relative to the repository) and the Babel extraction method that reads them."""

    pattern: str
    method: str = "python"


@dataclass(frozen=True)
class Domain:
    """One catalog: where its strings come from and which matching files belong to another domain instead."""

    name: str
    sources: tuple[Source, ...]
    exclude: tuple[str, ...] = ()


DOMAINS: tuple[Domain, ...] = (
    Domain("rules", (Source("engine/*/rules.py"),)),
    Domain("engine", (Source("engine/**/*.py"), Source("ai/**/*.py")), exclude=("engine/*/rules.py",)),
    Domain("render", (Source("render/**/*.py"),)),
    Domain("ui", (Source("ui/**/*.py"),)),
    Domain("cogs", (Source("cogs/**/*.py"), Source("bot.py"), Source("storage/**/*.py"))),
    Domain("table", (Source("table/**/*.py"),)),
    Domain("data", (Source("data/*.json", "i18n.extractors:data_json"),)),
    # The slash commands' names, descriptions, options and choices, read from the real command tree.
    Domain("commands", (Source("command_strings.py", "command_strings:extract"),)),
)
"""Every catalog domain. Each shipped language has one .po file per domain; a file belongs to one domain only."""
