"""Rule citations: every rule the code cites (R-numbers, TDA rules) is cited by a test and
explained in docs/rules.md (and docs/de/regeln.md), and the docs name only files that exist."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP_DIRS = ("tournaments", "tables", "scoring", "config", "templates", "static/js")
APP_SUFFIXES = {".py", ".html", ".js", ".toml", ".txt"}
RULES_DOC = ROOT / "docs" / "rules.md"
REGELN_DOC = ROOT / "docs" / "de" / "regeln.md"

# How the code cites a rule: "R3.7", a range "R1.2-R1.5" (one section), "TDA 10B" (also split
# over two string literals: 'TDA "\n "10B'), "TDA rule 47", "TDA RP-8", "RP-8", "RP 9".
_CITATION = re.compile(
    r"""
    \bR(?P<section>\d+)\.(?P<first>\d+)
        (?:\s*[-\u2013]\s*R?(?P=section)\.(?P<last>\d+))?(?!\d)
    | \b(?:TDA[\s"']*)?RP[-\s]?(?P<rp>\d+)(?!\d)
    | \bTDA[\s"']*(?:[Rr]ule\s+)?(?P<tda>\d+[A-Z]?)(?!\w|\.\d)
    """,
    re.VERBOSE,
)
# How a test's name cites one: test_r3_6_..., test_tda_10b_..., test_rp8_..., test_tda_rp_8_...
_TEST_NAME = re.compile(r"\bdef (test_\w+)")
_NAME_CITATION = re.compile(
    r"(?<![a-z0-9])(?:r(?P<section>\d+)_(?P<item>\d+)|(?:tda_)?rp_?(?P<rp>\d+)"
    r"|tda_(?P<tda>\d+[a-z]?))(?![a-z0-9])"
)


def rule_key(text: str) -> str:
    """The one spelling of a rule: "R3.7", "TDA 10B", "TDA RP-8"."""
    found = cited_rules(text)
    if len(found) != 1:
        raise ValueError(f"not one rule: {text!r}")
    return found.pop()


def cited_rules(text: str) -> set[str]:
    """Every rule cited in a text, in the one spelling of rule_key (ranges expanded)."""
    rules: set[str] = set()
    for match in _CITATION.finditer(text):
        if match["section"]:
            first, last = int(match["first"]), int(match["last"] or match["first"])
            rules.update(f"R{match['section']}.{item}" for item in range(first, last + 1))
        elif match["rp"]:
            rules.add(f"TDA RP-{int(match['rp'])}")
        else:
            rules.add(f"TDA {match['tda']}")
    return rules


def rules_in_test_names(text: str) -> set[str]:
    """Rules cited by the names of the test functions in a module (test_r3_6_..., test_tda_24)."""
    rules: set[str] = set()
    for name in _TEST_NAME.findall(text):
        for match in _NAME_CITATION.finditer(name):
            if match["section"]:
                rules.add(f"R{match['section']}.{match['item']}")
            elif match["rp"]:
                rules.add(f"TDA RP-{int(match['rp'])}")
            else:
                rules.add(f"TDA {match['tda'].upper()}")
    return rules


def scan(files: Mapping[str, str], *, test_names: bool = False) -> dict[str, set[str]]:
    """For each rule, the files that cite it (in their text, and in test names if asked)."""
    citing: dict[str, set[str]] = {}
    for path, text in files.items():
        rules = cited_rules(text) | (rules_in_test_names(text) if test_names else set())
        for rule in rules:
            citing.setdefault(rule, set()).add(path)
    return citing


def uncited(code: Mapping[str, set[str]], tests: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """The rules the code cites that no test cites, with the code files that cite each."""
    return {rule: files for rule, files in code.items() if rule not in tests}


def read_files(paths: Iterable[Path]) -> dict[str, str]:
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in paths}


def app_files() -> dict[str, str]:
    """The application's code, templates and scripts (migrations are generated, not cited)."""
    paths = [
        path
        for folder in APP_DIRS
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in APP_SUFFIXES and path.is_file() and "migrations" not in path.parts
    ]
    return read_files(paths)


def citing_test_modules() -> dict[str, str]:
    """The test modules, this one excepted (its examples are not citations)."""
    own = Path(__file__).resolve()
    return read_files(p for p in sorted((ROOT / "tests").rglob("test_*.py")) if p != own)


def defined_rules(markdown: str) -> set[str]:
    """The rules a documentation file explains: each list item that opens with **R3.7**."""
    entries = re.findall(r"^\s*- \*\*((?:R|TDA )[^*]+)\*\*", markdown, flags=re.MULTILINE)
    return {rule_key(entry) for entry in entries}


# --- the scanner ------------------------------------------------------------------------------


def test_citations_are_read_in_every_spelling_the_code_uses():
    text = (
        "# R3.7: a short all-in does not reopen\n"
        '"evaluates hands (R1.2-R1.5)" R2.10 and R5.11, not R5.1; TDA 10B; TDA "\n'
        '    "11D; TDA rule 47; (TDA 24: nobody is raced out); TDA RP-8 and RP-9; TDA: no number;'
        " as TDA 11A says."
    )
    assert cited_rules(text) == {
        "R3.7",
        "R1.2",
        "R1.3",
        "R1.4",
        "R1.5",
        "R2.10",
        "R5.11",
        "R5.1",
        "TDA 10B",
        "TDA 11A",
        "TDA 11D",
        "TDA 47",
        "TDA 24",
        "TDA RP-8",
        "TDA RP-9",
    }


def test_test_names_cite_rules_in_snake_case():
    module = (
        "def test_r3_6_pot_limit_raise():\n"
        "def test_r2_10_short_blind():\n"
        "def test_tda_10b_dealt_in():\n"
        "def test_rp9_deal():\n"
        "def helper_r4_2():\n"
        "def test_bar_r5_12():\n"
    )
    assert rules_in_test_names(module) == {"R3.6", "R2.10", "TDA 10B", "TDA RP-9", "R5.12"}


def test_the_check_reports_a_rule_the_code_cites_and_no_test_does():
    code = scan({"tables/x.py": "# R2.7: dead button\n# TDA 11C: fixed procedure\n"})
    tests = scan(
        {"tests/test_x.py": "def test_r2_7_dead_button():\n    assert True\n"}, test_names=True
    )
    assert uncited(code, tests) == {"TDA 11C": {"tables/x.py"}}
    more = scan({"tests/test_y.py": '"""Balancing (TDA 11C)."""'})
    assert uncited(code, {**tests, **more}) == {}


def test_defined_rules_reads_the_entries_of_the_rules_document():
    markdown = "- **R2.7** Dead button.\n  - **TDA 10B** Broken tables.\nR9.9 in passing\n"
    assert defined_rules(markdown) == {"R2.7", "TDA 10B"}


# --- the project ------------------------------------------------------------------------------


def test_every_rule_the_code_cites_is_cited_by_a_test():
    code = scan(app_files())
    assert len(code) > 40, "the scanner found too few citations: is APP_DIRS right?"
    missing = uncited(code, scan(citing_test_modules(), test_names=True))
    assert missing == {}, "rules cited in the code but by no test: " + "; ".join(
        f"{rule} ({', '.join(sorted(files))})" for rule, files in sorted(missing.items())
    )


def test_docs_rules_explain_every_rule_the_code_cites():
    documented = defined_rules(RULES_DOC.read_text(encoding="utf-8"))
    missing = set(scan(app_files())) - documented
    assert missing == set(), f"rules the code cites that docs/rules.md lacks: {sorted(missing)}"


def test_german_rules_explain_the_same_rules_as_the_english():
    english = defined_rules(RULES_DOC.read_text(encoding="utf-8"))
    german = defined_rules(REGELN_DOC.read_text(encoding="utf-8"))
    assert german == english, f"only English: {english - german}; only German: {german - english}"


def test_docs_name_only_files_that_exist():
    top = {p.name for p in ROOT.iterdir()} - {".git", ".venv", "var"}
    missing = []
    for doc in sorted((ROOT / "docs").rglob("*.md")):
        for name in re.findall(r"`([\w./-]+)`", doc.read_text(encoding="utf-8")):
            first = name.split("/")[0]
            if first in top and ("/" in name or "." in name) and not (ROOT / name).exists():
                missing.append(f"{doc.relative_to(ROOT)}: {name}")
    assert missing == [], f"the docs name files that do not exist: {missing}"


# --- the repository stands alone ----------------------------------------------------------------

_OUTSIDE = re.compile(r"\.\./shared\b|(?<![\w/])(?:DESIGN|RULES|STYLE)\.md\b")
STANDALONE_DIRS = (*APP_DIRS, "tests", "bench", "scripts", "docs")


def outside_references(files: Mapping[str, str]) -> list[str]:
    """Lines that point at documents outside the repository (../shared, DESIGN.md, RULES.md)."""
    return [
        f"{path}:{number}: {line.strip()}"
        for path, text in files.items()
        for number, line in enumerate(text.splitlines(), start=1)
        if _OUTSIDE.search(line)
    ]


def test_outside_references_are_found_and_docs_paths_are_not():
    files = {
        "a.py": "# see ../shared/RULES.md\n# R3.7 (docs/rules.md)\n",
        "b.md": "The design is in DESIGN.md.\n",
    }
    assert outside_references(files) == [
        "a.py:1: # see ../shared/RULES.md",
        "b.md:1: The design is in DESIGN.md.",
    ]


def test_the_repository_cites_only_its_own_documents():
    own = Path(__file__).resolve()
    paths = [
        path
        for folder in STANDALONE_DIRS
        for path in sorted((ROOT / folder).rglob("*"))
        if path.is_file()
        and path.suffix in APP_SUFFIXES | {".md", ".sh"}
        and path != own
        and "phh" not in path.parts
    ]
    files = read_files([*paths, ROOT / "README.md", ROOT / "Makefile", ROOT / "Procfile"])
    assert outside_references(files) == []
