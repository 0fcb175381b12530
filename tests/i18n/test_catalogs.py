"""The catalogs stay in step with the code, and every shipped language translates every string."""

from __future__ import annotations

import ast
from pathlib import Path

from i18n.catalogs import po_files, read_catalog
from i18n.domains import DOMAINS
from i18n.languages import ENGLISH, LANGUAGES
from i18n.tool import ROOT, check, files


def test_templates_and_every_language_are_in_step_with_the_code() -> None:
    problems = check()
    assert not problems, "run `python -m i18n update`, then translate:\n" + "\n".join(map(str, problems[:40]))


MARKERS = {"_", "N_", "ngettext", "pgettext", "npgettext"}


def _marked_inside_fstrings(path: Path) -> list[str]:
    """Return the marker calls written inside an f-string, which `pybabel extract` cannot see."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.JoinedStr):
            for part in ast.walk(node):
                if isinstance(part, ast.Call) and getattr(part.func, "id", None) in MARKERS:
                    found.append(f"{path.relative_to(ROOT)}:{part.lineno}: {ast.unparse(part)[:60]}")
    return found


def test_no_marked_string_hides_inside_an_fstring_where_the_extractor_cannot_find_it() -> None:
    paths = [path for domain in DOMAINS for path in files(domain) if path.suffix == ".py"]
    assert [hit for path in paths for hit in _marked_inside_fstrings(path)] == []


def test_a_message_in_several_domains_is_translated_the_same_in_each() -> None:
    differ = []
    for language in (code for code in LANGUAGES if code != ENGLISH):
        seen: dict[tuple[object, ...], tuple[str, object]] = {}
        for path in po_files(language):
            for message in read_catalog(path, language):
                if not message.id:
                    continue
                ident = (message.context, message.id if isinstance(message.id, str) else tuple(message.id))
                string = message.string if isinstance(message.string, str) else tuple(message.string)
                first = seen.setdefault(ident, (path.stem, string))
                if first[1] != string:
                    differ.append(f"{language} {ident[1]!r}: {first[0]} {first[1]!r}, {path.stem} {string!r}")
    assert differ == [], "the compiled catalog keeps only one of them:\n" + "\n".join(differ)
