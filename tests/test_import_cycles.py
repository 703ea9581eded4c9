"""No module imports another that imports it back (issue 17), at any depth of the file."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# tables/ is left out for now: tables.online.live <-> tables.online.play is the online helpers'.
APPS = ("tournaments", "scoring", "config")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules a file imports, from `import a.b` or `from a[.b] import c`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found & modules


def test_no_two_modules_import_each_other():
    paths = [
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    ]
    modules = {_module(path) for path in paths}
    graph = {_module(path): _imports(path, modules) for path in paths}
    pairs = sorted(
        f"{a} <-> {b}" for a, targets in graph.items() for b in targets if a < b and a in graph[b]
    )
    assert pairs == []
