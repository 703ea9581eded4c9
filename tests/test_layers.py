"""The apps are layers (issue #7): tournaments at the bottom, tables above, scoring on top.

Nothing imports upward: not at module level, not inside a function, not as a string model
reference (ForeignKey("scoring.Season"), apps.get_model("scoring", "Season")), not through
importlib. tables.engine counts as tables. Migrations are history (a model's old home stays
named in them) and are left out; the final model graph is checked through the app registry.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("tournaments", "tables", "scoring")  # bottom first
RANK = {app: rank for rank, app in enumerate(LAYERS)}
MODEL_REFERENCE = re.compile(r"(?P<app>[a-z_]+)\.[A-Z]\w*")  # "scoring.Season"
IMPORT_CALLS = {"import_module", "__import__"}


@dataclass(frozen=True)
class Upward:
    """One reference from a lower layer to a higher one."""

    path: str
    line: int
    source: str  # the app of the file
    target: str  # what it names

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.source} -> {self.target}"


def _app_of(name: str) -> str | None:
    top = name.split(".")[0]
    return top if top in RANK else None


def _module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, node: ast.ImportFrom, *, is_package: bool) -> str:
    """The absolute module a (maybe relative) ``from ... import`` names."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _string_arg(node: ast.Call, index: int) -> str | None:
    if len(node.args) > index:
        arg = node.args[index]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return None


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def references(source: str, *, module: str, is_package: bool = False) -> Iterator[tuple[int, str]]:
    """Every module or app a source file names: (line, dotted name)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):  # every depth: function-level imports too
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node, is_package=is_package)
            yield node.lineno, base
            # ``from scoring import places`` names scoring.places
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"
        elif isinstance(node, ast.Call):
            name = _call_name(node)
            first = _string_arg(node, 0)
            if name == "get_model" and first is not None:
                # apps.get_model("scoring.Season") or apps.get_model("scoring", "Season")
                yield node.lineno, first.split(".")[0]
            elif name in IMPORT_CALLS and first is not None:
                yield node.lineno, first
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = MODEL_REFERENCE.fullmatch(node.value)
            if match and _app_of(match["app"]):
                yield node.lineno, match["app"]  # ForeignKey("scoring.Season"), lazy refs


def upward_references(
    source: str, *, path: str, module: str, is_package: bool = False
) -> list[Upward]:
    """The references of one file of a layer to the layers above it."""
    app = _app_of(module)
    if app is None:
        return []
    found = []
    for line, name in references(source, module=module, is_package=is_package):
        target = _app_of(name)
        if target is not None and RANK[target] > RANK[app]:
            found.append(Upward(path=path, line=line, source=app, target=name))
    return found


def check_layers(root: Path = ROOT) -> list[Upward]:
    """Every upward reference in the Python files of the three apps under ``root``."""
    found: list[Upward] = []
    for app in LAYERS:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.relative_to(root).parts:
                continue
            found += upward_references(
                path.read_text(encoding="utf-8"),
                path=str(path.relative_to(root)),
                module=_module_of(path, root),
                is_package=path.name == "__init__.py",
            )
    return found


# --- the project ------------------------------------------------------------------------------


def test_no_app_imports_a_layer_above_it():
    upward = check_layers()
    assert not upward, "upward references:\n" + "\n".join(map(str, upward))


def test_the_check_reads_every_app():
    files = {app: list((ROOT / app).rglob("*.py")) for app in LAYERS}
    assert all(len(found) > 5 for found in files.values())
    assert any("engine" in path.parts for path in files["tables"])


@pytest.mark.django_db
def test_no_model_points_to_a_layer_above_it():
    """The final model graph (what the migrations build): every relation points down or level."""
    upward = []
    for model in apps.get_models():
        app = model._meta.app_label
        if app not in RANK:
            continue
        for field in model._meta.get_fields():
            target = field.related_model
            if field.is_relation and not field.auto_created and target is not None:
                other = target._meta.app_label  # type: ignore[union-attr]
                if other in RANK and RANK[other] > RANK[app]:
                    upward.append(f"{model.__name__}.{field.name} -> {other}")
    assert not upward


# History: the migrations that ran before the apps were layers, and the one that takes over the
# tables created there (it must run after them on a fresh database). No other may be added.
HISTORICAL_UPWARD = {
    ("tournaments", "0004_event_season"): {("scoring", "0002_seasons_satellites_chipups")},
    ("tables", "0003_chip_up_race_hand_for_hand"): {
        ("scoring", "0003_chip_up_totals_hand_for_hand")
    },
}


def test_migrations_depend_on_no_layer_above_but_history():
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    loader.graph.ensure_not_cyclic()
    upward = {}
    for (app, name), migration in loader.disk_migrations.items():
        if app not in RANK:
            continue
        above = {dep for dep in migration.dependencies if RANK.get(dep[0], -1) > RANK[app]}
        if above:
            upward[(app, name)] = above
    assert upward == HISTORICAL_UPWARD


# --- the check itself fails on an upward reference ----------------------------------------------


@pytest.mark.parametrize(
    ("module", "source", "target"),
    [
        ("tournaments.models", "from scoring.models import Elimination\n", "scoring.models"),
        ("tournaments.clock", "import tables.seating\n", "tables.seating"),
        ("tables.services", "from scoring import places\n", "scoring"),
        (
            "tables.engine.cards",
            "def later():\n    from scoring.places import Stack\n    return Stack\n",
            "scoring.places",
        ),
        (
            "tournaments.models",
            "from django.db import models\n\nclass Event(models.Model):\n"
            '    season = models.ForeignKey("scoring.Season", on_delete=models.PROTECT)\n',
            "scoring",
        ),
        (
            "tables.selectors",
            "from django.apps import apps\n\n"
            'def season():\n    return apps.get_model("scoring", "Season")\n',
            "scoring",
        ),
        (
            "tables.views",
            'import importlib\n\nmod = importlib.import_module("scoring.views")\n',
            "scoring.views",
        ),
    ],
)
def test_the_check_reports_an_upward_reference(module, source, target):
    found = upward_references(source, path="synthetic.py", module=module)
    assert target in {u.target for u in found}


def test_the_check_resolves_relative_imports():
    names = {
        name
        for _, name in references(
            "from .. import services\nfrom .cards import Card\n", module="tables.engine.hand"
        )
    }
    assert {"tables.services", "tables.engine.cards"} <= names
    assert upward_references("from . import places\n", path="x.py", module="scoring.views") == []


def test_the_check_allows_downward_and_level_references():
    source = (
        "from tournaments.models import Event\nfrom tables.models import Table\n"
        'import scoring.places\nx = "tournaments.Event"\n'
    )
    assert upward_references(source, path="x.py", module="scoring.services") == []
    assert (
        upward_references(
            source.replace("import scoring.places\n", ""), path="x.py", module="tables.services"
        )
        == []
    )


def test_check_layers_fails_on_a_file_with_an_upward_import(tmp_path):
    """The whole walk over a tree, as CI runs it, on a copy with one deliberate upward import."""
    for app in LAYERS:
        (tmp_path / app / "migrations").mkdir(parents=True)
        (tmp_path / app / "__init__.py").write_text("")
        # history is left out: a migration naming an upper app is not reported
        (tmp_path / app / "migrations" / "0001_x.py").write_text('to = "scoring.Season"\n')
    (tmp_path / "tables" / "engine").mkdir()
    (tmp_path / "tables" / "engine" / "cards.py").write_text("import os\n")
    (tmp_path / "scoring" / "services.py").write_text("from tables.models import Table\n")
    assert check_layers(tmp_path) == []
    (tmp_path / "tables" / "engine" / "cards.py").write_text(
        "def deal():\n    from scoring import places\n    return places\n"
    )
    (found,) = {(u.path, u.source) for u in check_layers(tmp_path)}
    assert found == (str(Path("tables/engine/cards.py")), "tables")
