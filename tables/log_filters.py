"""A logging filter: no log line ever holds a hand's deck or secret (docs/architecture.md,
"Integrity"), even Django's SQL debug log, whose writes of a hand carry them as parameters."""

from __future__ import annotations

import logging

HAND_TABLE = "tables_tablehand"


class HideHandSecrets(logging.Filter):
    """Drop the SQL debug record of a write to a hand's row (its deck and secret in the
    parameters); reads name no card and pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        sql = str(getattr(record, "sql", "") or "")
        if HAND_TABLE not in sql:
            return True
        return not sql.lstrip().upper().startswith(("INSERT", "UPDATE"))
