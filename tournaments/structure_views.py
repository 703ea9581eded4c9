"""The blind structure editor (admins) and the public structure page: form, service, render."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import structure_services as services
from tournaments.bounds import parse_id
from tournaments.models import BlindStructure, Level
from tournaments.permissions import acting_user, admin_required, floor_required
from tournaments.structure_chart import structure_chart
from tournaments.structure_forms import (
    DuplicateForm,
    ImportForm,
    LevelForm,
    ShapeForm,
    StructureForm,
)
from tournaments.structure_shape import structure_shape
from tournaments.structures import StructureImportError, StructureProblem

UNPROCESSABLE = 422


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


# --- the list, creating and importing -----------------------------------------------------------


def _render_list(
    request: HttpRequest,
    *,
    form: StructureForm | None = None,
    import_form: ImportForm | None = None,
    import_problems: list[StructureProblem] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "structures": BlindStructure.objects.select_related("chip_set").order_by(
            "-is_preset", "name"
        ),
        "form": form or StructureForm(initial={"chip_set": _default_chip_set_pk()}),
        "import_form": import_form or ImportForm(),
        "import_problems": import_problems or [],
    }
    return render(request, "tournaments/structure_list.html", context, status=status)


def _default_chip_set_pk() -> int | None:
    first = BlindStructure.objects.filter(is_preset=True).values_list("chip_set", flat=True).first()
    return first


@require_GET
@floor_required
def structure_list(request: HttpRequest) -> HttpResponse:
    """Every structure; for admins with forms to create and to import one (floor staff read)."""
    return _render_list(request)


@require_POST
@admin_required
def structure_create(request: HttpRequest) -> HttpResponse:
    """Create an empty structure and open it in the editor."""
    form = StructureForm(request.POST)
    if not form.is_valid():
        return _render_list(request, form=form, status=UNPROCESSABLE)
    try:
        structure = services.create_structure(actor=acting_user(request), **form.cleaned_data)
    except services.StructureEditError as error:
        form.add_error(None, str(error))
        return _render_list(request, form=form, status=UNPROCESSABLE)
    return redirect("tournaments:structure_editor", pk=structure.pk)


@require_POST
@admin_required
def structure_import(request: HttpRequest) -> HttpResponse:
    """Import a JSON document; every problem is listed with its level number."""
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render_list(request, import_form=form, status=UNPROCESSABLE)
    try:
        structure = services.import_structure(
            actor=acting_user(request), text=form.cleaned_data["document"]
        )
    except StructureImportError as error:
        return _render_list(
            request, import_form=form, import_problems=error.problems, status=UNPROCESSABLE
        )
    return redirect("tournaments:structure_editor", pk=structure.pk)


@require_GET
@admin_required
def structure_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The structure as a JSON file (the format of tournaments.structures)."""
    structure = get_object_or_404(BlindStructure.objects.select_related("chip_set"), pk=pk)
    response = JsonResponse(
        services.export_structure(structure), json_dumps_params={"indent": 2, "ensure_ascii": False}
    )
    filename = f"{slugify(structure.name) or 'structure'}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_POST
@admin_required
def structure_duplicate(request: HttpRequest, pk: int) -> HttpResponse:
    """Copy a structure (a preset too) under a new name and open the copy."""
    structure = get_object_or_404(BlindStructure, pk=pk)
    form = DuplicateForm(request.POST)
    if not form.is_valid():
        return _render_editor(request, structure, duplicate_form=form, status=UNPROCESSABLE)
    copy = services.duplicate_structure(
        actor=acting_user(request), structure=structure, name=form.cleaned_data["name"]
    )
    return redirect("tournaments:structure_editor", pk=copy.pk)


# --- the editor ---------------------------------------------------------------------------------


def _render_editor(
    request: HttpRequest,
    structure: BlindStructure,
    *,
    status: int = 200,
    edit_form: LevelForm | None = None,
    edit_level: Level | None = None,
    insert_form: LevelForm | None = None,
    insert_at: int | None = None,
    add_form: LevelForm | None = None,
    duplicate_form: DuplicateForm | None = None,
    errors: list[str] | None = None,
) -> HttpResponse:
    levels = list(structure.levels.select_related("chip_up").order_by("position"))
    if edit_level is not None and edit_form is None:
        edit_form = LevelForm.for_level(edit_level, form_id="level-edit")
    if insert_at is not None and insert_form is None:
        insert_form = LevelForm(
            structure=structure, form_id="level-insert", initial={"position": insert_at}
        )
    context: dict[str, Any] = {
        "structure": structure,
        "editor_url": reverse("tournaments:structure_editor", args=[structure.pk]),
        "level_add_url": reverse("tournaments:level_add", args=[structure.pk]),
        "levels": levels,
        "problems": services.structure_problems(structure) if levels else [],
        "errors": errors or [],
        "edit_level": edit_level,
        "edit_form": edit_form,
        "insert_at": insert_at,
        "insert_form": insert_form,
        "add_form": add_form or LevelForm(structure=structure, form_id="level-add"),
        "duplicate_form": duplicate_form
        or DuplicateForm(initial={"name": _("%(name)s (copy)") % {"name": structure.name}}),
    }
    template = "tournaments/structure_editor.html"
    if _is_htmx(request):
        template += "#levels"
    return render(request, template, context, status=status)


def _done(request: HttpRequest, structure: BlindStructure) -> HttpResponse:
    """After a write: the fresh levels for htmx, a redirect to the editor otherwise."""
    if _is_htmx(request):
        return _render_editor(request, structure)
    return redirect("tournaments:structure_editor", pk=structure.pk)


def _int_param(request: HttpRequest, name: str) -> int | None:
    return parse_id(request.GET.get(name, ""))


@require_GET
@admin_required
def structure_editor(request: HttpRequest, pk: int) -> HttpResponse:
    """The levels of a structure in a table; ?edit=<level id> and ?insert=<position> open a row."""
    structure = get_object_or_404(BlindStructure.objects.select_related("chip_set"), pk=pk)
    edit_level = None
    if not structure.is_preset and (level_pk := _int_param(request, "edit")) is not None:
        edit_level = get_object_or_404(Level, pk=level_pk, structure=structure)
    insert_at = None if structure.is_preset else _int_param(request, "insert")
    if insert_at is not None and not 1 <= insert_at <= structure.levels.count() + 1:
        insert_at = None
    return _render_editor(request, structure, edit_level=edit_level, insert_at=insert_at)


def _refuse(
    request: HttpRequest, structure: BlindStructure, error: services.StructureEditError
) -> HttpResponse:
    return _render_editor(
        request, structure, errors=[str(p) for p in error.problems], status=UNPROCESSABLE
    )


def _refuse_preset(request: HttpRequest, structure: BlindStructure) -> HttpResponse:
    message = _("Presets are read-only: duplicate the structure to change it.")
    return _render_editor(request, structure, errors=[message], status=UNPROCESSABLE)


@require_POST
@admin_required
def level_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a level at the end, or insert it at the posted position."""
    structure = get_object_or_404(BlindStructure.objects.select_related("chip_set"), pk=pk)
    if structure.is_preset:
        return _refuse_preset(request, structure)
    insert_at = parse_id(request.POST.get("position", ""))
    form_id = "level-add" if insert_at is None else "level-insert"
    form = LevelForm(request.POST, structure=structure, form_id=form_id)
    if form.is_valid():
        try:
            services.insert_level(
                actor=acting_user(request),
                structure=structure,
                values=form.spec(),
                position=insert_at,
            )
            return _done(request, structure)
        except services.StructureEditError as error:
            for problem in error.problems:
                form.add_error(None, str(problem))
    if insert_at is None:
        return _render_editor(request, structure, add_form=form, status=UNPROCESSABLE)
    return _render_editor(
        request, structure, insert_form=form, insert_at=insert_at, status=UNPROCESSABLE
    )


@require_POST
@admin_required
def level_update(request: HttpRequest, pk: int, level_pk: int) -> HttpResponse:
    """Change one level in place."""
    level = get_object_or_404(Level.objects.select_related("structure"), pk=level_pk, structure=pk)
    structure = level.structure
    if structure.is_preset:
        return _refuse_preset(request, structure)
    form = LevelForm(request.POST, structure=structure, form_id="level-edit")
    if form.is_valid():
        try:
            services.update_level(actor=acting_user(request), level=level, values=form.spec())
            return _done(request, structure)
        except services.StructureEditError as error:
            for problem in error.problems:
                form.add_error(None, str(problem))
    return _render_editor(
        request, structure, edit_level=level, edit_form=form, status=UNPROCESSABLE
    )


@require_POST
@admin_required
def level_delete(request: HttpRequest, pk: int, level_pk: int) -> HttpResponse:
    """Delete one level; the later ones move up."""
    level = get_object_or_404(Level.objects.select_related("structure"), pk=level_pk, structure=pk)
    try:
        services.delete_level(actor=acting_user(request), level=level)
    except services.StructureEditError as error:
        return _refuse(request, level.structure, error)
    return _done(request, level.structure)


@require_POST
@admin_required
def level_move(request: HttpRequest, pk: int, level_pk: int) -> HttpResponse:
    """Move one level up or down."""
    level = get_object_or_404(Level.objects.select_related("structure"), pk=level_pk, structure=pk)
    offsets = {"up": -1, "down": 1}
    direction = request.POST.get("direction", "")
    if direction not in offsets:
        return HttpResponse(_("Move “up” or “down”."), status=400, content_type="text/plain")
    try:
        services.move_level(actor=acting_user(request), level=level, offset=offsets[direction])
    except services.StructureEditError as error:
        return _refuse(request, level.structure, error)
    return _done(request, level.structure)


# --- the public page ----------------------------------------------------------------------------


@require_GET
def structure_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A structure's levels and shape for a field size and starting stack (public)."""
    structure = get_object_or_404(BlindStructure.objects.select_related("chip_set"), pk=pk)
    defaults = {"players": 10, "stack": structure.starting_stack}
    form = ShapeForm(request.GET or None, initial=defaults)
    values = form.cleaned_data if form.is_bound and form.is_valid() else defaults
    shape = structure_shape(
        structure.level_specs(), players=values["players"], starting_stack=values["stack"]
    )
    if not form.is_bound:
        form = ShapeForm(defaults)
    context = {
        "structure": structure,
        "form": form,
        "shape": shape,
        "chart": structure_chart(shape) if shape.rows else None,
        "problems": services.structure_problems(structure),
        "json_url": reverse("tournaments:structure_export", args=[structure.pk]),
    }
    return render(request, "tournaments/structure_detail.html", context)
