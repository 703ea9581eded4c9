"""Tests check what they mean to: a ValueError is expected with its message (issue 16)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_expected_value_error_names_its_message():
    """A bare raises of ValueError passes on any ValueError, also one from a typo."""
    bare = [
        f"{path.relative_to(TESTS)}:{number}"
        for path in TESTS.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"pytest\.raises\(ValueError\)(?! as)", line)
    ]
    assert bare == []
