"""The floor's chip-up page (R5.11, TDA 24): a form per table, the race dealt and stored."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.chipup_forms import ChipUpForm
from tables.chipup_services import (
    ChipUpError,
    DueChipUp,
    dealing_order,
    due_chip_up,
    race_chip_up,
)
from tables.engine import RANKS
from tables.models import ChipUpRace
from tables.services import live_tables
from tournaments.fragments import board_fragment
from tournaments.models import Event
from tournaments.permissions import floor_required

SUIT_SYMBOLS = "♣♦♥♠"  # clubs, diamonds, hearts, spades: the engine's suit numbers (R1.6)


def card_face(card: int | None) -> dict[str, Any] | None:
    """A card as the page shows it: rank and suit symbol, red or black."""
    if card is None:
        return None
    rank, suit = RANKS[card >> 2].replace("T", "10"), card & 3
    return {"text": f"{rank}{SUIT_SYMBOLS[suit]}", "red": suit in (1, 2)}


def _race_rows(race: ChipUpRace) -> list[dict[str, Any]]:
    """Each player's line with every card he was dealt, best card marked (R5.11)."""
    rows = []
    for line in race.lines:
        cards = line.get("cards", [line["card"]] if line["card"] is not None else [])
        faces = [{**(card_face(c) or {}), "best": c == line["card"]} for c in cards]
        rows.append({**line, "face": card_face(line["card"]), "faces": faces})
    return rows


def _tables(
    event: Event, due: DueChipUp | None, posted: tuple[int, ChipUpForm] | None
) -> list[dict[str, Any]]:
    races = {}
    if due is not None:
        races = {
            r.table_id: r
            for r in ChipUpRace.objects.filter(event=event, level_index=due.level_index)
        }
    rows = []
    for table in live_tables(event):
        race = races.get(table.pk)
        if posted is not None and posted[0] == table.number:
            form = posted[1]
        else:
            level = due.level_index if due else 0
            form = ChipUpForm(
                initial={"table": table.number, "level": level}, seats=dealing_order(table)
            )
        rows.append(
            {"table": table, "race": race, "lines": _race_rows(race) if race else [], "form": form}
        )
    return rows


def _render(
    request: HttpRequest,
    event: Event,
    *,
    posted: tuple[int, ChipUpForm] | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    due = due_chip_up(event)
    context = {"event": event, "due": due, "tables": _tables(event, due, posted), "error": error}
    return render(request, "tables/chipup_floor.html", context, status=status)


@floor_required
def chip_up(request: HttpRequest, pk: int) -> HttpResponseBase:
    """GET: the due chip-up with a form per table; POST: one table's race, stored and audited."""
    event = get_object_or_404(Event.objects.select_related("structure"), pk=pk)
    if request.method != "POST":
        return _render(request, event)
    table = next(
        (t for t in live_tables(event) if str(t.number) == request.POST.get("table")), None
    )
    if table is None:
        return _render(request, event, error=_("Choose a table in play."), status=400)
    form = ChipUpForm(request.POST, seats=dealing_order(table))
    if not form.is_valid():
        return _render(request, event, posted=(table.number, form), status=400)
    user = request.user
    assert isinstance(user, User)  # noqa: S101 - floor_required lets only users through
    try:
        race_chip_up(
            event_id=event.pk, table_number=table.number, level_index=form.cleaned_data["level"],
            small_chips=form.small_chips(), no_other_chips=form.no_other_chips(), actor=user,
        )  # fmt: skip
    except ChipUpError as error:
        return _render(request, event, posted=(table.number, form), error=str(error), status=400)
    messages.success(request, _("Table %(table)s has raced.") % {"table": table.number})
    return HttpResponseRedirect(
        reverse("tables:chip_up", args=[event.pk]) + f"#table-{table.number}"
    )


@require_GET
def chip_up_banner(request: HttpRequest, code: str) -> HttpResponse:
    """The public chip-up banner (TV, phones): the race in progress, tables still to race.

    The part of the event's board that the stream carries with each change (a race publishes
    it on its commit, tournaments.live_board); If-None-Match answers 304 while it reads the same.
    """
    return board_fragment(request, "chip_up", code=code)
