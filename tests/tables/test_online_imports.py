"""No module of tables/online/ imports another that imports it back (issue 17: live -> play ->
services -> live was a circle), at any depth: a function-level import is an import too."""

from __future__ import annotations

from pathlib import Path

from tests.test_layers import ROOT, _module_of, references

PACKAGE = ROOT / "tables" / "online"


def import_graph(package: Path = PACKAGE, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the package -> the package's modules it imports (every depth)."""
    paths = {_module_of(path, root): path for path in sorted(package.glob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        named = {
            name
            for _line, name in references(
                path.read_text(encoding="utf-8"), module=module,
                is_package=path.name == "__init__.py",
            )
        }  # fmt: skip
        graph[module] = {other for other in paths if other in named and other != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of imports found by a depth-first walk (each reported from where it closes)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the walk's path, 2 done

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                found.append([*path[path.index(other) :], other])
            elif other not in state:
                walk(other, [*path, other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])
    return found


def test_the_check_finds_a_circle_at_any_depth(tmp_path):
    package = tmp_path / "tables" / "online"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from tables.online import b\n")
    (package / "b.py").write_text("def f():\n    from tables.online.c import g\n")
    (package / "c.py").write_text("import tables.online.a\n")
    (package / "d.py").write_text("from tables.online.a import x\n")
    found = cycles(import_graph(package, tmp_path))
    assert found == [["tables.online.a", "tables.online.b", "tables.online.c", "tables.online.a"]]


def test_no_module_of_the_online_tables_imports_one_that_imports_it_back():
    found = cycles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)
