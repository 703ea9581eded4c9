"""The one CSV writer of every export: cells a spreadsheet would run as a formula are defused."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse

# OWASP "CSV injection": a cell starting with one of these is a formula to Excel, LibreOffice
# and Google Sheets (=HYPERLINK(...), @SUM(...)); a leading quote makes it plain text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """The value as written to a cell: text that starts a formula gets a leading quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeCsvWriter:
    """csv.writer whose rows are defused cell by cell (numbers are written as they are)."""

    def __init__(self, stream: Any) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[Any]) -> None:
        """Write one row, every text cell defused."""
        self._writer.writerow([safe_cell(value) for value in row])


def csv_response(filename: str) -> tuple[HttpResponse, SafeCsvWriter]:
    """An attachment response and the safe writer that fills it."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, SafeCsvWriter(response)
