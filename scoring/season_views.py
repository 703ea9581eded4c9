"""Season pages: the leaderboard (with a what-if), a player's results, the CSV exports.

Results and standings are public, as they are on the wall of a live poker room; only the
season's formula is written here, by admins.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseBase,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from scoring import season_selectors as selectors
from scoring.payout_selectors import event_payouts
from scoring.satellites import compute_super_final_stacks
from scoring.season_chart import season_chart
from scoring.season_forms import FormulaForm, WhatIfForm
from scoring.season_services import change_season_formula
from tournaments.csv_export import csv_response
from tournaments.entry_services import FloorError, stack_rule
from tournaments.fragments import conditional_fragment
from tournaments.models import Event, Player, Season
from tournaments.money_format import currency
from tournaments.permissions import admin_required, floor_required
from tournaments.selectors import is_admin


def _bad_formula(form: FormulaForm | WhatIfForm) -> HttpResponseBadRequest:
    reason = "; ".join(str(error) for error in form.errors.get("formula", []))
    return HttpResponseBadRequest(reason or _("Unknown points formula."), content_type="text/plain")


@require_GET
def season_chart_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The season chart alone, for the TV of an event in the season; 304 while unchanged."""
    season = get_object_or_404(Season, pk=pk)
    html = render_to_string(
        "scoring/_season_chart.html", {"chart": season_chart(season)}, request=request
    )
    return conditional_fragment(request, html)


@require_GET
@vary_on_headers("Accept-Language", "Cookie")
def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's leaderboard; ?formula=… shows it under another formula, changing nothing."""
    season = get_object_or_404(Season, pk=pk)
    formula: str | None = None
    if request.GET.get("formula"):
        what_if = WhatIfForm(request.GET)
        if not what_if.is_valid():
            return _bad_formula(what_if)
        formula = what_if.cleaned_data["formula"]
    table = selectors.season_table(season, formula=formula)
    etag = f'"{table.etag}-{request.LANGUAGE_CODE}-{int(is_admin(request.user))}"'
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return not_modified
    context = {
        "season": season,
        "table": table,
        "what_if_form": WhatIfForm(initial={"formula": table.formula}),
        "formula_form": FormulaForm(initial={"formula": season.formula}),
        "chart": season_chart(season, formula=formula),
    }
    template = "scoring/season_detail.html"
    if getattr(request, "htmx", False):
        template += "#leaderboard"
    response = render(request, template, context)
    response["ETag"] = etag
    return response


@require_POST
@admin_required
def season_formula(request: HttpRequest, pk: int) -> HttpResponseBase:
    """R6.3: an admin makes another formula the season's active one (audited)."""
    season = get_object_or_404(Season, pk=pk)
    form = FormulaForm(request.POST)
    if not form.is_valid():
        return _bad_formula(form)
    user = request.user
    assert isinstance(user, User)  # noqa: S101 - admin_required lets only users through
    change_season_formula(season_id=season.pk, formula=form.cleaned_data["formula"], actor=user)
    messages.success(request, _("The season now counts points by this formula."))
    return HttpResponseRedirect(reverse("seasons:season_detail", args=[season.pk]))


@require_GET
def season_standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's standings as CSV (public, like the leaderboard)."""
    season = get_object_or_404(Season, pk=pk)
    table = selectors.season_table(season)
    response, writer = csv_response(f"{slugify(season.name) or 'season'}-standings.csv")
    writer.writerow(["rank", "player_id", "player", "points", "events", "wins", "best_place"])
    for line in table.standings:
        writer.writerow(
            [line.rank, line.player_id, line.player_name, line.points, line.events, line.wins,
             line.best_place]
        )  # fmt: skip
    return response


@require_GET
def event_results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's places and points as CSV (public: results are posted in the room too)."""
    event = get_object_or_404(Event.objects.select_related("season"), pk=pk)
    rows = selectors.event_results(event)
    response, writer = csv_response(f"{slugify(event.name) or 'event'}-{event.pk}-results.csv")
    # docs/money.md: an event with money adds each place's prize (currency units, "120.00").
    money = event_payouts(event)
    header = ["place", "player_id", "player", "entrants", "points", "qualified"]
    writer.writerow(header + ([f"prize_{currency().lower()}"] if money else []))
    for row in rows:
        prize = money.prize_by_place.get(row.place) if money and row.place else None
        writer.writerow(
            [row.place, row.player_id, row.player_name, row.entrants, row.points,
             "yes" if row.qualified else ""]
            + ([f"{prize // 100}.{prize % 100:02d}" if prize is not None else ""] if money else [])
        )  # fmt: skip
    return response


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's events: places, points and satellites qualified for."""
    player = get_object_or_404(Player, pk=pk)
    results = selectors.player_results(player)
    context = {
        "player": player,
        "results": results,
        "summary": selectors.player_summary(results),
    }
    return render(request, "scoring/player_detail.html", context)


@floor_required
def super_final_stacks(request: HttpRequest, pk: int) -> HttpResponseBase:
    """R5.5: the final's entries with satellites won and stacks; POST sets them from the season."""
    event = get_object_or_404(Event.objects.select_related("season"), pk=pk)
    status = 200
    if request.method == "POST":
        user = request.user
        assert isinstance(user, User)  # noqa: S101 - floor_required lets only users through
        try:
            changes = compute_super_final_stacks(event_id=event.pk, actor=user)
        except FloorError as error:
            messages.error(request, str(error))
            status = 400
        else:
            messages.success(request, _("%(count)s starting stacks set.") % {"count": len(changes)})
            return HttpResponseRedirect(request.path)
    entries = event.entries.select_related("player").order_by("player__name")
    context = {"event": event, "entries": entries, "stack_rule": stack_rule(event)}
    return render(request, "scoring/season_super_final.html", context, status=status)
