"""The engine's tree: one package per game and one for hand histories, each with a docstring
and public names; code outside the engine imports only those, never a module's file name."""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = {
    "tables.engine",
    "tables.engine.holdem",
    "tables.engine.stud",
    "tables.engine.draw",
    "tables.engine.phh",
}
OWN = (ROOT / "tables" / "engine", ROOT / "tests" / "engine", ROOT / ".venv")


def engine_imports(source: str) -> list[str]:
    """Every tables.engine module a source imports, by name (``import`` and ``from``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name == "tables.engine" or name.startswith("tables.engine.")]


def test_engine_imports_sees_from_and_plain_imports():
    source = "import tables.engine.cards\nfrom tables.engine.stud import StudHand\nimport os\n"
    assert engine_imports(source) == ["tables.engine.cards", "tables.engine.stud"]


def test_nothing_outside_the_engine_imports_an_engine_module_by_file_name():
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        if any(path.is_relative_to(own) for own in OWN):
            continue
        for name in engine_imports(path.read_text(encoding="utf-8")):
            if name not in PUBLIC:
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_each_package_says_what_it_holds_and_its_public_names_exist(name):
    package = importlib.import_module(name)
    assert package.__doc__ and package.__doc__.strip()
    assert package.__all__
    missing = [public for public in package.__all__ if not hasattr(package, public)]
    assert missing == []


def test_games_and_histories_have_their_own_packages():
    engine = ROOT / "tables" / "engine"
    top = sorted(path.name for path in engine.glob("*.py"))
    assert not [name for name in top if name.startswith(("stud", "draw", "phh"))]
    for package in ("holdem", "stud", "draw", "phh"):
        assert (engine / package / "__init__.py").is_file()
        assert (ROOT / "tests" / "engine" / package / "__init__.py").is_file()
