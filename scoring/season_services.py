"""Writes on seasons: the active points formula (R6.3), always audited."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import points
from tournaments.models import Season
from tournaments.services import record_audit


class SeasonError(ValueError):
    """A season change that cannot be applied; nothing changed."""


@transaction.atomic
def change_season_formula(*, season_id: int, formula: str, actor: User | None) -> Season:
    """R6.3: make one formula the season's active one; the standings follow on the next read."""
    if formula not in points.FORMULAS:
        raise SeasonError(_("%(value)s is not a points formula.") % {"value": formula})
    season = Season.objects.select_for_update().get(pk=season_id)
    if season.formula == formula:
        return season  # a second click changes nothing
    before = season.formula
    season.formula = formula
    season.save(update_fields=["formula", "updated_at"])
    record_season_change(season=season, actor=actor, changes={"formula": [before, formula]})
    return season


def record_season_change(
    *, season: Season, actor: User | None, changes: dict[str, list[object]], created: bool = False
) -> None:
    """Audit a season's creation or change: which fields, from what, to what."""
    record_audit(
        actor=actor,
        action="season.created" if created else "season.changed",
        season=season.pk,
        name=season.name,
        changes={field: [str(a), str(b)] for field, (a, b) in changes.items()},
    )
