"""The payout structure editor (admins): form, service, render; htmx swaps the rows."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring import payout_services as services
from scoring import payouts
from scoring.payout_forms import PayoutDuplicateForm, PayoutRowForm, PayoutStructureForm
from scoring.payout_models import PayoutStructure, PayoutTier
from tournaments.bounds import parse_id
from tournaments.permissions import acting_user, admin_required

UNPROCESSABLE = 422


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _render_list(
    request: HttpRequest, *, form: PayoutStructureForm | None = None, status: int = 200
) -> HttpResponse:
    context = {
        "structures": PayoutStructure.objects.order_by("-is_preset", "name").prefetch_related(
            "tiers"
        ),
        "form": form or PayoutStructureForm(),
    }
    return render(request, "scoring/payout_list.html", context, status=status)


@require_GET
@admin_required
def structure_list(request: HttpRequest) -> HttpResponse:
    """Every payout structure, and a form to create one."""
    return _render_list(request)


@require_POST
@admin_required
def structure_create(request: HttpRequest) -> HttpResponse:
    """Create an empty payout structure and open it in the editor."""
    form = PayoutStructureForm(request.POST)
    if not form.is_valid():
        return _render_list(request, form=form, status=UNPROCESSABLE)
    try:
        structure = services.create_payout_structure(
            actor=acting_user(request), **form.cleaned_data
        )
    except services.PayoutEditError as error:
        form.add_error(None, str(error))
        return _render_list(request, form=form, status=UNPROCESSABLE)
    return redirect("payouts:structure_editor", pk=structure.pk)


def _gaps_text(structure: PayoutStructure) -> list[str]:
    rows = structure.rows()
    if not rows:
        return []
    texts = []
    for low, high in payouts.table_gaps(rows):
        gap = payouts.PayoutRow(min_entries=low, max_entries=high, percentages=())
        texts.append(gap.range_text)
    return texts


def _render_editor(
    request: HttpRequest,
    structure: PayoutStructure,
    *,
    status: int = 200,
    add_form: PayoutRowForm | None = None,
    edit_tier: PayoutTier | None = None,
    edit_form: PayoutRowForm | None = None,
    duplicate_form: PayoutDuplicateForm | None = None,
    errors: list[str] | None = None,
) -> HttpResponse:
    if edit_tier is not None and edit_form is None:
        edit_form = PayoutRowForm.for_tier(edit_tier, form_id="row-edit")
    tiers = list(structure.tiers.order_by("min_entries"))
    context: dict[str, Any] = {
        "structure": structure,
        "tiers": [(tier, tier.row()) for tier in tiers],
        "editor_url": reverse("payouts:structure_editor", args=[structure.pk]),
        "add_url": reverse("payouts:row_add", args=[structure.pk]),
        "add_form": add_form or PayoutRowForm(form_id="row-add"),
        "edit_tier": edit_tier,
        "edit_form": edit_form,
        "errors": errors or [],
        "problems": payouts.table_problems([tier.row() for tier in tiers]),
        "gaps": _gaps_text(structure),
        "duplicate_form": duplicate_form
        or PayoutDuplicateForm(initial={"name": _("%(name)s (copy)") % {"name": structure.name}}),
    }
    template = "scoring/payout_editor.html" + ("#rows" if _is_htmx(request) else "")
    return render(request, template, context, status=status)


def _done(request: HttpRequest, structure: PayoutStructure) -> HttpResponse:
    if _is_htmx(request):
        return _render_editor(request, structure)
    return redirect("payouts:structure_editor", pk=structure.pk)


@require_GET
@admin_required
def structure_editor(request: HttpRequest, pk: int) -> HttpResponse:
    """The rows of a payout structure; ?edit=<row id> opens one for editing."""
    structure = get_object_or_404(PayoutStructure, pk=pk)
    edit_tier = None
    tier_id = parse_id(request.GET.get("edit", ""))
    if not structure.is_preset and tier_id is not None:
        edit_tier = get_object_or_404(PayoutTier, pk=tier_id, structure=structure)
    return _render_editor(request, structure, edit_tier=edit_tier)


@require_POST
@admin_required
def row_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a row; the whole table is checked, each problem naming its row."""
    structure = get_object_or_404(PayoutStructure, pk=pk)
    form = PayoutRowForm(request.POST, form_id="row-add")
    if form.is_valid():
        try:
            services.save_payout_row(
                actor=acting_user(request), structure=structure, row=form.row()
            )
            return _done(request, structure)
        except services.PayoutEditError as error:
            for problem in error.problems:
                form.add_error(None, problem)
    return _render_editor(request, structure, add_form=form, status=UNPROCESSABLE)


@require_POST
@admin_required
def row_update(request: HttpRequest, pk: int, tier_pk: int) -> HttpResponse:
    """Change one row in place."""
    tier = get_object_or_404(
        PayoutTier.objects.select_related("structure"), pk=tier_pk, structure=pk
    )
    form = PayoutRowForm(request.POST, form_id="row-edit")
    if form.is_valid():
        try:
            services.save_payout_row(
                actor=acting_user(request), structure=tier.structure, row=form.row(), tier=tier
            )
            return _done(request, tier.structure)
        except services.PayoutEditError as error:
            for problem in error.problems:
                form.add_error(None, problem)
    return _render_editor(
        request, tier.structure, edit_tier=tier, edit_form=form, status=UNPROCESSABLE
    )


@require_POST
@admin_required
def row_delete(request: HttpRequest, pk: int, tier_pk: int) -> HttpResponse:
    """Delete one row."""
    tier = get_object_or_404(
        PayoutTier.objects.select_related("structure"), pk=tier_pk, structure=pk
    )
    try:
        services.delete_payout_row(actor=acting_user(request), tier=tier)
    except services.PayoutEditError as error:
        return _render_editor(request, tier.structure, errors=error.problems, status=UNPROCESSABLE)
    return _done(request, tier.structure)


@require_POST
@admin_required
def structure_duplicate(request: HttpRequest, pk: int) -> HttpResponse:
    """Copy a payout structure (a preset too) under a new name and open the copy."""
    structure = get_object_or_404(PayoutStructure, pk=pk)
    form = PayoutDuplicateForm(request.POST)
    if form.is_valid():
        try:
            copy = services.duplicate_payout_structure(
                actor=acting_user(request), structure=structure, name=form.cleaned_data["name"]
            )
            return redirect("payouts:structure_editor", pk=copy.pk)
        except services.PayoutEditError as error:
            for problem in error.problems:
                form.add_error("name", problem)
    return _render_editor(request, structure, duplicate_form=form, status=UNPROCESSABLE)
