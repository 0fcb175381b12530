"""Keep the catalogs in step with the code: extract the templates, update every language, check them all."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

from i18n.catalogs import LOCALES, TEMPLATES, complete, read_catalog
from i18n.domains import COMMENT_TAGS, DOMAINS, KEYWORDS, Domain
from i18n.languages import ENGLISH, LANGUAGES

ROOT = LOCALES.parent
PROJECT = "Ice Floe"
_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^}]*)?\}")


def files(domain: Domain, root: Path = ROOT) -> list[Path]:
    """Return the source files of one domain, each once, in a stable order."""
    excluded = {path for pattern in domain.exclude for path in root.glob(pattern)}
    found: dict[Path, None] = {}
    for source in domain.sources:
        for path in sorted(root.glob(source.pattern)):
            if path not in excluded and "__pycache__" not in path.parts:
                found.setdefault(path, None)
    return list(found)


def _method(domain: Domain, path: Path, root: Path) -> str:
    """Return the extraction method of the first source pattern that matches `path`."""
    relative = path.relative_to(root)
    for source in domain.sources:
        if relative.match(source.pattern) or path in root.glob(source.pattern):
            return source.method
    return "python"


def template(domain: Domain, root: Path = ROOT) -> Catalog:
    """Return the template of one domain, extracted from its source files now."""
    catalog = new_catalog(domain.name)
    for path in files(domain, root):
        with path.open("rb") as source:
            found = extract(_method(domain, path, root), source, KEYWORDS, COMMENT_TAGS, {})
            for lineno, message, comments, context in found:
                catalog.add(
                    message,
                    None,
                    [(str(path.relative_to(root)), lineno)],
                    auto_comments=comments,
                    context=context,
                )
    return catalog


def write(catalog: Catalog, path: Path) -> None:
    """Write a catalog as a .po/.pot file, sorted and without line numbers so code edits do not churn it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=116, no_location=False, omit_header=False, sort_output=True, include_lineno=False)
    path.write_bytes(buffer.getvalue())


def template_path(domain: str) -> Path:
    """Return where one domain's template lives."""
    return TEMPLATES / f"{domain}.pot"


def po_path(language: str, domain: str) -> Path:
    """Return where one language's catalog of one domain lives."""
    return LOCALES / language / "LC_MESSAGES" / f"{domain}.po"


STAMP = datetime(2026, 12, 1, tzinfo=UTC)
"""The date written in every catalog header, so a catalog's file changes only when its strings do."""


def new_catalog(domain: str, language: str | None = None) -> Catalog:
    """Return an empty catalog of one domain, with the project's header."""
    catalog = Catalog(
        locale=language,
        domain=domain,
        project=PROJECT,
        version="1",
        copyright_holder="the Ice Floe authors",
        msgid_bugs_address="the project's issue tracker",
        last_translator="Ice Floe translators",
        language_team=LANGUAGES.get(language or ENGLISH, language),
        fuzzy=False,
        creation_date=STAMP,
        revision_date=STAMP,
    )
    name = LANGUAGES.get(language or ENGLISH, language) if language else "Template for the"
    catalog.header_comment = (
        f"# {name} catalog of Ice Floe: {domain} strings.\n"
        "# Edit msgstr only; `python -m i18n update` keeps the msgids in step with the code.\n#"
    )
    return catalog


def chosen(names: Iterable[str] | None) -> list[Domain]:
    """Return the named domains (all of them when none are named)."""
    wanted = set(names or ())
    unknown = wanted - {domain.name for domain in DOMAINS}
    if unknown:
        raise ValueError(f"no such domain: {', '.join(sorted(unknown))}")
    return [domain for domain in DOMAINS if not wanted or domain.name in wanted]


def update(languages: Iterable[str] | None = None, domains: Iterable[str] | None = None) -> None:
    """Extract templates and bring each language's catalogs in step (new strings empty, gone ones dropped)."""
    for domain in chosen(domains):
        fresh = template(domain)
        write(fresh, template_path(domain.name))
        for language in languages or [code for code in LANGUAGES if code != ENGLISH]:
            path = po_path(language, domain.name)
            catalog = read_catalog(path, language) if path.exists() else new_catalog(domain.name, language)
            catalog.update(fresh, no_fuzzy_matching=True, update_creation_date=False)
            catalog.revision_date = STAMP
            catalog.obsolete.clear()
            write(catalog, path)


def key(message: Message) -> tuple[str | None, str]:
    """Return a message's identity in a catalog: its context and its (singular) msgid."""
    ident = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, ident


def placeholders(text: str) -> set[str]:
    """Return the named placeholders of a message."""
    return set(_PLACEHOLDER.findall(text))


@dataclass(frozen=True)
class Problem:
    """One way the catalogs and the code disagree."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def check(languages: Iterable[str] | None = None, domains: Iterable[str] | None = None) -> list[Problem]:
    """Return every difference between code, templates and translations (empty when all is in step)."""
    problems: list[Problem] = []
    for domain in chosen(domains):
        fresh = {key(m): m for m in template(domain) if m.id}
        path = template_path(domain.name)
        if not path.exists():
            problems.append(Problem(str(path), "missing: run `python -m i18n update`"))
            continue
        with path.open("rb") as source:
            saved = {key(m) for m in read_po(source) if m.id}
        for missing in sorted(set(fresh) - saved, key=str):
            problems.append(Problem(str(path), f"not in the template: {missing[1]!r}"))
        for gone in sorted(saved - set(fresh), key=str):
            problems.append(Problem(str(path), f"no longer in the code: {gone[1]!r}"))
        for language in languages or [code for code in LANGUAGES if code != ENGLISH]:
            problems.extend(_check_language(language, domain.name, fresh))
    return problems


def _check_language(language: str, domain: str, fresh: dict[tuple[str | None, str], Message]) -> Iterator[Problem]:
    """Yield what one language's catalog of one domain lacks or gets wrong."""
    path = po_path(language, domain)
    if not path.exists():
        yield Problem(str(path), "missing")
        return
    have = {key(m): m for m in read_catalog(path, language) if m.id}
    for ident, message in fresh.items():
        where = f"{path} {ident[1]!r}"
        got = have.get(ident)
        if got is None or not complete(got.string) or got.fuzzy:
            yield Problem(where, "not translated")
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        wanted = placeholders(english) if isinstance(message.id, str) else placeholders(" ".join(message.id))
        strings = [got.string] if isinstance(got.string, str) else list(got.string)
        for string in strings:
            extra = placeholders(string) - wanted - {"n"}
            lost = wanted - placeholders(string) - ({"n"} if not isinstance(message.id, str) else set())
            if extra or lost:
                yield Problem(where, f"placeholders differ: {sorted(extra)} added, {sorted(lost)} missing")
