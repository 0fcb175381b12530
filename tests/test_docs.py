"""Check that the README and docs/ only link to files that exist in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def relative_links(page: Path) -> list[str]:
    """Return the links of a Markdown page that point into the repository."""
    return [target for target in LINK.findall(page.read_text()) if "://" not in target]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_linked_file_exists(page: Path) -> None:
    missing = [target for target in relative_links(page) if not (page.parent / target).exists()]
    assert not missing, f"{page.name} links to files that do not exist: {missing}"


def test_the_readme_points_to_no_file_outside_the_repository() -> None:
    text = (ROOT / "README.md").read_text()
    for outside in ("RULINGS.md", "rules/flippers.txt", "../shared"):
        assert outside not in text


def test_the_readme_links_every_document_in_docs() -> None:
    linked = set(relative_links(ROOT / "README.md"))
    unlinked = [p.name for p in PAGES[1:] if f"docs/{p.name}" not in linked]
    assert not unlinked, f"README.md does not link {unlinked}"
