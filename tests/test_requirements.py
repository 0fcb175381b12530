"""Check the dependency files: pinned, runtime apart from development, and enough on their own to import the bot.

The import check needs no network: it puts only the distributions requirements.txt pulls in (read from the
installed metadata, dependencies included) on the path of a Python started without site-packages, and imports
every module of the bot there. A module that needs a development tool (pytest, hypothesis, fontTools, ...) or a
library missing from requirements.txt fails it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_PACKAGES = ("ai", "cogs", "engine", "i18n", "render", "storage", "ui")
DEV_ONLY = {"pytest", "pytest-asyncio", "hypothesis", "ruff", "fonttools"}
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def normal(name: str) -> str:
    """Return a distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    """Return name -> pinned version of each requirement line of a requirements file (not -r includes)."""
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].split(";", 1)[0].strip()
        if line and not line.startswith("-r"):
            name, sep, version = line.partition("==")
            assert sep and version.strip(), f"{path.name}: {line!r} is not pinned with =="
            found[normal(name.split("[", 1)[0].strip())] = version.strip()
    return found


def closure(names: set[str]) -> set[str]:
    """Return the installed distributions these need, themselves and their dependencies (extras left out)."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for requirement in metadata.distribution(name).requires or []:
            if "extra ==" in requirement.replace('extra=="', 'extra == "'):
                continue
            wanted = normal(NAME.match(requirement).group(0))  # type: ignore[union-attr]
            try:
                metadata.distribution(wanted)
            except metadata.PackageNotFoundError:
                continue  # a dependency for another platform or Python
            todo.append(wanted)
    return seen


def test_both_files_are_pinned_and_tools_stay_out_of_the_runtime_file() -> None:
    runtime, dev = pins(ROOT / "requirements.txt"), pins(ROOT / "requirements-dev.txt")
    assert {"discord-py", "aiosqlite", "asyncpg", "pillow", "python-dotenv"} <= set(runtime)
    assert set(dev) >= DEV_ONLY and not DEV_ONLY & set(runtime)
    assert (ROOT / "requirements-dev.txt").read_text().splitlines()[1] == "-r requirements.txt"
    for name, version in (runtime | dev).items():
        installed = metadata.version(name)
        assert installed == version, f"{name} {installed} is installed, not the pinned {version}"


def test_the_bot_imports_with_the_runtime_requirements_alone(tmp_path: Path) -> None:
    wanted = closure(set(pins(ROOT / "requirements.txt")))
    assert not wanted & DEV_ONLY, f"a runtime requirement pulls in {wanted & DEV_ONLY}"
    site = tmp_path / "site-packages"
    site.mkdir()
    for name in wanted:
        dist = metadata.distribution(name)
        tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops - {"__pycache__"}:
            source = Path(str(dist.locate_file(top)))
            if source.exists() and not (site / top).exists():
                (site / top).symlink_to(source)
    script = f"""
import importlib, json, pkgutil, sys
sys.path[:0] = [{str(site)!r}, {str(ROOT)!r}]
names = ["bot", "config"]
for package in {RUNTIME_PACKAGES!r}:
    module = importlib.import_module(package)
    names += [package] + [i.name for i in pkgutil.walk_packages(module.__path__, package + ".")]
for name in names:
    importlib.import_module(name)
print(json.dumps(sorted(set(names))))
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ICE_FLOE_GAMES"))}
    done = subprocess.run(
        [sys.executable, "-S", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    imported = json.loads(done.stdout)
    assert {"bot", "cogs.game", "engine.fish.game", "render.fish.board", "storage.database", "ui.flow"} <= set(imported)
