"""Keep docs/ARCHITECTURE.md true: every module, folder and Class.method it names exists."""

from __future__ import annotations

import ast
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


ROOMS_TABLE = re.compile(r"^\| *`[^`]+` *\|.*\|$", re.MULTILINE)
MOST_LINES = 500


def sources() -> list[Path]:
    """Return every Python file of the project outside tests/ (and outside hidden folders such as .venv)."""
    return sorted(
        p
        for p in ROOT.rglob("*.py")
        if not any(part.startswith(".") or part in ("tests", "__pycache__") for part in p.relative_to(ROOT).parts)
    )


def module_name(path: Path) -> str:
    """Return the dotted module a file is imported as (a package by its folder)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def known_modules() -> set[str]:
    """Return every module of the repository, tests' too (bench/ may import the fake Discord)."""
    files = [p for p in ROOT.rglob("*.py") if not any(part.startswith(".") for part in p.relative_to(ROOT).parts)]
    return {module_name(p) for p in files}


def imported(path: Path, known: set[str]) -> set[str]:
    """Return the project modules a file imports anywhere: at the top, in a function or under TYPE_CHECKING."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != here:
                found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    """Return each module outside tests/ with the project modules it imports."""
    known = known_modules()
    return {module_name(p): imported(p, known) for p in sources()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return every group of modules that import one another round a circle (Tarjan's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue  # a test module: outside the house
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def room_of(module: str) -> str:
    """Return the room a module lives in as the architecture page names it: `bot.py` or `cogs/`."""
    top, dot, _rest = module.partition(".")
    return f"{top}/" if dot or (ROOT / top).is_dir() else f"{top}.py"


def rooms_table() -> dict[str, tuple[set[str], set[str]]]:
    """Return each room of the page's table with the rooms its arrows point at and the rooms it may import."""
    rows: dict[str, tuple[set[str], set[str]]] = {}
    for line in ROOMS_TABLE.findall(DOC.read_text()):
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 3:
            (room,), arrows, may = (CODE.findall(cell) for cell in cells)
            rows[room] = (set(arrows), set(may))
    return rows


def reach(arrows: dict[str, set[str]], room: str) -> set[str]:
    """Return every room the arrows lead to from `room`, directly or through other rooms."""
    seen: set[str] = set()
    todo = list(arrows.get(room, ()))
    while todo:
        nxt = todo.pop()
        if nxt not in seen:
            seen.add(nxt)
            todo += arrows.get(nxt, ())
    return seen


def test_no_module_outside_the_tests_imports_round_a_circle() -> None:
    graph = import_graph()
    assert len(graph) > 150 and graph["bot"], "the import graph came out empty"
    assert circles(graph) == [], (
        "these modules import one another round a circle; break it by the idea (pass what the lower one needs: "
        f"a protocol of its own, a callback or the data), not by hiding the import: {circles(graph)}"
    )


def test_the_circle_finder_finds_a_circle_and_passes_a_one_way_chain() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []


def test_the_import_reader_sees_lazy_and_type_only_imports() -> None:
    known = known_modules()
    found = imported(ROOT / "storage" / "rerate.py", known)
    assert {"config", "storage.database", "storage.ratings"} <= found
    assert "ui.flow" in imported(ROOT / "ui" / "flowbot.py", known)
    assert "tests.harness" in imported(ROOT / "bench" / "latency" / "burst.py", known)


def test_no_file_outside_the_tests_is_over_500_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in sources() if (n := len(p.read_text().splitlines())) > MOST_LINES}
    assert long == {}, f"split these by idea into modules of at most {MOST_LINES} lines: {long}"


def test_the_rooms_table_is_one_way_and_says_all_that_each_room_may_import() -> None:
    table = rooms_table()
    assert {"bot.py", "cogs/", "ui/", "storage/", "engine/", "i18n/"} <= set(table), table
    arrows = {room: pointed for room, (pointed, _may) in table.items()}
    for room, (pointed, may) in table.items():
        assert pointed <= set(table) | {"tests/"}, f"{room} points at a room the table does not list"
        assert room not in reach(arrows, room), f"the arrows lead from {room} back to itself"
        assert may == reach(arrows, room), f"{room} may import what its arrows reach: {sorted(reach(arrows, room))}"


def test_every_room_imports_only_what_the_architecture_page_allows_it() -> None:
    table = rooms_table()
    wrong = []
    for module, targets in import_graph().items():
        room = room_of(module)
        assert room in table, f"{module} lives in {room}, a room docs/ARCHITECTURE.md's table does not list"
        allowed = table[room][1] | {room}
        wrong += [f"{module} -> {target}" for target in sorted(targets) if room_of(target) not in allowed]
    assert wrong == [], f"imports the architecture page does not allow (its rooms table): {wrong}"
