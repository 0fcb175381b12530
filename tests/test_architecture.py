"""Keep docs/ARCHITECTURE.md true: every module, folder and Class.method it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ARCHITECTURE.md"
PACKAGES = ("ai", "bench", "cogs", "data", "docs", "engine", "render", "storage", "tests", "ui")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^[\w.-]+(?:/[\w.-]+)*/?$")
DOTTED = re.compile(r"\b(?:" + "|".join(PACKAGES) + r")(?:\.\w+)+")
METHOD = re.compile(r"^([A-Z]\w+)\.(\w+)$")


def module_exists(dotted: str) -> bool:
    """Tell whether a dotted name starts with a module or package of the project (the rest may be attributes)."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:n])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return True
    return False


def named() -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """Return the paths, dotted modules and Class.method names the page puts in code spans."""
    paths, modules, methods = [], [], []
    for span in CODE.findall(FENCE.sub("", DOC.read_text())):
        if (method := METHOD.match(span)) is not None:
            methods.append((method.group(1), method.group(2)))
        elif PATH.match(span) and ("/" in span or span.endswith(".py")):
            paths.append(span)
        else:
            modules += DOTTED.findall(span)
    return paths, modules, methods


def test_every_path_and_module_the_architecture_page_names_exists() -> None:
    paths, modules, _ = named()
    assert len(paths) > 40 and len(modules) >= 3, (paths, modules)
    missing = [p for p in paths if not (ROOT / p).exists()]
    missing += [m for m in modules if not module_exists(m)]
    assert missing == [], f"docs/ARCHITECTURE.md names what does not exist: {missing}"


def test_every_class_and_method_the_architecture_page_names_exists() -> None:
    _, _, methods = named()
    assert len(methods) >= 5
    sources = {p: p.read_text() for p in ROOT.glob("[!.]*/**/*.py") if ".venv" not in p.parts}
    for cls, method in methods:
        homes = [text for text in sources.values() if re.search(rf"^class {cls}\b", text, re.MULTILINE)]
        assert homes, f"docs/ARCHITECTURE.md names class {cls}, which no module defines"
        pattern = rf"^    (?:async )?def {method}\b|^    {method} = |^        self\.{method} = "
        assert any(re.search(pattern, text, re.MULTILINE) for text in homes), f"{cls}.{method} does not exist"
