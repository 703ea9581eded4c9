"""Check that every online chip is accounted for, at any time, play going on
(docs/operations.md, "Checking that chips are conserved")."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tables.online.services import chips_report


class Command(BaseCommand):
    help = (
        "Check that chips are conserved: each cash table against its ledger, each online event "
        "against what its entries brought, every play chip granted in an account or at a seat. "
        "Safe while tables play; exits with an error on a mismatch."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        lines, wrong = chips_report()
        self.stdout.write("\n".join(lines) + "\n")
        if wrong:
            raise CommandError(
                f"{wrong} MISMATCH: a bug. Keep the database as it is (take a backup) and "
                "report it with these lines."
            )
