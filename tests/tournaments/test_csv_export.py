"""The one CSV writer: formula cells defused (OWASP CSV injection), no export writes past it."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tournaments.csv_export import SafeCsvWriter, safe_cell

ROOT = Path(__file__).resolve().parents[2]
APPS = ("tournaments", "tables", "scoring", "config")


@pytest.mark.parametrize(
    ("value", "written"),
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1+1", "'-1+1"), ("@SUM(1+1)", "'@SUM(1+1)"),
     ("\t=1", "'\t=1"), ("\r=1", "'\r=1"), ("Anna", "Anna"), ("", ""), ("a=1", "a=1"),
     (-5, -5), (3, 3), (None, None)],
)  # fmt: skip
def test_safe_cell_quotes_only_text_that_starts_a_formula(value, written):
    assert safe_cell(value) == written


def test_safe_writer_writes_defused_rows():
    stream = io.StringIO()
    SafeCsvWriter(stream).writerow(['=HYPERLINK("x")', -1, "Bert"])
    assert stream.getvalue() == '"\'=HYPERLINK(""x"")",-1,Bert\r\n'


def test_no_export_writes_csv_past_the_safe_writer():
    """Every CSV export goes through tournaments/csv_export.py (a new csv.writer would not)."""
    writers = [
        f"{path.relative_to(ROOT)}"
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(", path.read_text())
        and path != ROOT / "tournaments" / "csv_export.py"
    ]
    assert writers == []
