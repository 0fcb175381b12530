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


def test_the_settings_example_and_the_service_name_only_documents_that_exist() -> None:
    for path in (ROOT / ".env.example", *sorted((ROOT / "deploy").iterdir())):
        named = re.findall(r"docs/[\w.-]+\.md", path.read_text())
        # docs/table.md belongs to the table's work, still under way (named in .env.example before it landed)
        missing = [name for name in named if not (ROOT / name).exists() and name != "docs/table.md"]
        assert not missing, f"{path.name} names documents that do not exist: {missing}"


def test_systemd_gives_up_only_on_bad_settings() -> None:
    from bot import EXIT_CONFIG, EXIT_LEASE_LOST, EXIT_SHARD_TAKEN

    unit = (ROOT / "deploy" / "ice-floe@.service").read_text()
    refused = re.search(r"^RestartPreventExitStatus=(.*)$", unit, re.M)
    assert refused is not None and refused.group(1).split() == [str(EXIT_CONFIG)]
    assert re.search(r"^Restart=on-failure$", unit, re.M)
    assert EXIT_SHARD_TAKEN and EXIT_LEASE_LOST  # non-zero: both count as failures, so both are restarted
    stop = re.search(r"^TimeoutStopSec=(\d+)$", unit, re.M)
    assert stop is not None and int(stop.group(1)) > 10, "systemd must not kill a process that is still stopping"
