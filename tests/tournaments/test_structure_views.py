"""The structure editor through its views: roles, every action, refusals that change nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.factories import make_structure
from tournaments.models import AuditEvent, BlindStructure, Level
from tournaments.presets import default_chip_set, load_presets

HTMX = {"HTTP_HX_REQUEST": "true"}


def rows(structure):
    return list(
        structure.levels.order_by("position").values_list(
            "position", "kind", "small_blind", "big_blind", "ante", "minutes", "chip_up__value"
        )
    )


def blinds(structure):
    return [(r[2], r[3]) for r in rows(structure)]


def snapshot():
    return (
        list(BlindStructure.objects.order_by("pk").values()),
        list(Level.objects.order_by("pk").values()),
        AuditEvent.objects.count(),
    )


@pytest.fixture
def structure(db):
    return make_structure(levels=((25, 50, 0, 12), (50, 100, 0, 12), (100, 200, 0, 12)))


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


def level_data(small, big, ante=0, minutes=12, kind="play", chip_up="", position=""):
    return {
        "kind": kind,
        "small_blind": small,
        "big_blind": big,
        "ante": ante,
        "minutes": minutes,
        "chip_up": chip_up,
        "position": position,
    }


def endpoints(structure):
    level = structure.levels.order_by("position")[1]
    pk = structure.pk
    return [
        ("get", reverse("tournaments:structure_list"), {}),
        ("post", reverse("tournaments:structure_create"), {"name": "N"}),
        ("post", reverse("tournaments:structure_import"), {"text": "{}"}),
        ("get", reverse("tournaments:structure_editor", args=[pk]), {}),
        ("get", reverse("tournaments:structure_export", args=[pk]), {}),
        ("post", reverse("tournaments:structure_duplicate", args=[pk]), {"name": "Copy"}),
        ("post", reverse("tournaments:level_add", args=[pk]), level_data(200, 400)),
        ("post", reverse("tournaments:level_update", args=[pk, level.pk]), level_data(50, 100)),
        ("post", reverse("tournaments:level_move", args=[pk, level.pk]), {"direction": "up"}),
        ("post", reverse("tournaments:level_delete", args=[pk, level.pk]), {}),
    ]


# --- roles ---------------------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(client, structure):
    before = snapshot()
    for method, url, data in endpoints(structure):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login")), url
    assert snapshot() == before


@pytest.mark.parametrize("role", ["player_user", "floor_user"])
def test_players_and_floor_staff_are_forbidden(client, structure, role, request):
    client.force_login(request.getfixturevalue(role))
    before = snapshot()
    for method, url, data in endpoints(structure)[role == "floor_user" :]:  # floor reads the list
        assert getattr(client, method)(url, data).status_code == 403, url
    assert snapshot() == before


def kinds(structure):
    return [r[1] for r in rows(structure)]


def _created(structure):
    made = BlindStructure.objects.get(name="N")
    return made.starting_stack == 5_000 and not made.levels.exists()


def _copied(structure):
    return rows(BlindStructure.objects.get(name="Copy")) == rows(structure)


# Each endpoint on a fresh structure (25/50, a break, 50/100, 100/200): its one right status and
# what it changed. The level acted on is the break, so it can move down without breaking R2.
ADMIN_CASES = {
    "list": ("get", "tournaments:structure_list", False, {}, 200, lambda s: True),
    "create": (
        "post", "tournaments:structure_create", False,
        {"name": "N", "game": "no_limit", "starting_stack": 5_000}, 302, _created,
    ),
    "import refused": (
        "post", "tournaments:structure_import", False, {"text": "{}"}, 422,
        lambda s: BlindStructure.objects.count() == 1,
    ),
    "editor": ("get", "tournaments:structure_editor", True, {}, 200, lambda s: True),
    "duplicate": (
        "post", "tournaments:structure_duplicate", True, {"name": "Copy"}, 302, _copied,
    ),
    "add": (
        "post", "tournaments:level_add", True, level_data(200, 400), 302,
        lambda s: blinds(s)[-1] == (200, 400),
    ),
    "move": (
        "post", "tournaments:level_move", "level", {"direction": "down"}, 302,
        lambda s: kinds(s) == ["play", "play", "break", "play"],
    ),
    "update": (
        "post", "tournaments:level_update", "level", level_data(0, 0, minutes=15, kind="break"),
        302, lambda s: rows(s)[1][5] == 15,
    ),
    "delete": (
        "post", "tournaments:level_delete", "level", {}, 302,
        lambda s: kinds(s) == ["play", "play", "play"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", ADMIN_CASES)
def test_admins_may_use_every_endpoint(admin_client, name):
    method, url_name, args, data, status, changed = ADMIN_CASES[name]
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 0, 12), (100, 200, 0, 12)),
                               breaks_after=(0,))  # fmt: skip
    if name == "create":
        data = {**data, "chip_set": structure.chip_set_id}
    level = structure.levels.get(position=2)
    url_args = {False: [], True: [structure.pk], "level": [structure.pk, level.pk]}[args]
    audits = AuditEvent.objects.count()
    response = getattr(admin_client, method)(reverse(url_name, args=url_args), data)
    assert response.status_code == status, response.content[:2000]
    assert changed(structure)
    assert AuditEvent.objects.count() == audits + (status == 302)


def test_admins_export_the_structure_as_json(admin_client, structure):
    response = admin_client.get(reverse("tournaments:structure_export", args=[structure.pk]))
    assert response.status_code == 200
    document = json.loads(response.content)
    assert [(lv["small_blind"], lv["big_blind"]) for lv in document["levels"]] == blinds(structure)


def test_the_structure_page_is_public(client, structure):
    response = client.get(reverse("tournaments:structure_detail", args=[structure.pk]))
    assert response.status_code == 200
    assert b"<svg" in response.content
    assert b"Edit levels" not in response.content


def test_home_links_admins_to_the_structures(client, admin_user, player_user):
    url = reverse("tournaments:structure_list")
    client.force_login(player_user)
    assert url not in client.get("/").content.decode()
    client.force_login(admin_user)
    assert url in client.get("/").content.decode()


# --- each action ---------------------------------------------------------------------------------


def test_create_a_structure(admin_client):
    chip_set = default_chip_set()
    response = admin_client.post(
        reverse("tournaments:structure_create"),
        {"name": "Tuesday", "game": "no_limit", "starting_stack": 5_000, "chip_set": chip_set.pk},
    )
    structure = BlindStructure.objects.get(name="Tuesday")
    assert response.status_code == 302
    assert response.url == reverse("tournaments:structure_editor", args=[structure.pk])
    assert AuditEvent.objects.filter(action="structure.created").count() == 1


def test_create_refuses_a_duplicate_name(admin_client, structure):
    before = snapshot()
    response = admin_client.post(
        reverse("tournaments:structure_create"),
        {"name": structure.name, "game": "no_limit", "starting_stack": 5_000, "chip_set": 1},
    )
    assert response.status_code == 422
    assert snapshot() == before


def test_add_a_level_at_the_end_with_htmx(admin_client, structure):
    url = reverse("tournaments:level_add", args=[structure.pk])
    response = admin_client.post(url, level_data(200, 400, 25), **HTMX)
    assert response.status_code == 200
    assert b'id="levels"' in response.content and b"<html" not in response.content
    assert blinds(structure)[-1] == (200, 400)
    assert rows(structure)[-1][4] == 25
    assert AuditEvent.objects.get(action="structure.level_added").data["position"] == 4


def test_add_without_javascript_redirects_to_the_editor(admin_client, structure):
    response = admin_client.post(
        reverse("tournaments:level_add", args=[structure.pk]), level_data(200, 400)
    )
    assert response.status_code == 302
    assert response.url == reverse("tournaments:structure_editor", args=[structure.pk])


def test_insert_a_level_before_and_after(admin_client, structure):
    url = reverse("tournaments:level_add", args=[structure.pk])
    assert admin_client.post(url, level_data(25, 50, position=2), **HTMX).status_code == 200
    assert blinds(structure) == [(25, 50), (25, 50), (50, 100), (100, 200)]
    assert admin_client.post(url, level_data(75, 150, position=4), **HTMX).status_code == 200
    assert blinds(structure) == [(25, 50), (25, 50), (50, 100), (75, 150), (100, 200)]
    assert [r[0] for r in rows(structure)] == [1, 2, 3, 4, 5]


def test_the_insert_form_opens_in_place(admin_client, structure):
    url = reverse("tournaments:structure_editor", args=[structure.pk])
    response = admin_client.get(url, {"insert": 2}, **HTMX)
    assert response.status_code == 200
    assert b'id="level-insert"' in response.content
    assert b'name="position" value="2"' in response.content


def test_delete_a_level(admin_client, structure):
    middle = structure.levels.get(position=2)
    url = reverse("tournaments:level_delete", args=[structure.pk, middle.pk])
    assert admin_client.post(url, **HTMX).status_code == 200
    assert blinds(structure) == [(25, 50), (100, 200)]
    assert [r[0] for r in rows(structure)] == [1, 2]


def test_move_a_break_up_and_down(admin_client):
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 0, 12)), breaks_after=(1,))
    pause = structure.levels.get(kind="break")
    url = reverse("tournaments:level_move", args=[structure.pk, pause.pk])
    assert admin_client.post(url, {"direction": "up"}, **HTMX).status_code == 200
    assert [r[1] for r in rows(structure)] == ["play", "break", "play"]
    assert admin_client.post(url, {"direction": "down"}, **HTMX).status_code == 200
    assert [r[1] for r in rows(structure)] == ["play", "play", "break"]
    assert AuditEvent.objects.filter(action="structure.level_moved").count() == 2


def test_move_that_makes_a_level_go_down_is_refused(admin_client, structure):
    before = snapshot()
    level = structure.levels.get(position=3)
    url = reverse("tournaments:level_move", args=[structure.pk, level.pk])
    response = admin_client.post(url, {"direction": "up"}, **HTMX)
    assert response.status_code == 422
    assert "Level 3: the small blind goes down (100 → 50)." in response.content.decode()
    assert snapshot() == before


def test_move_past_the_end_and_a_bad_direction_are_refused(admin_client, structure):
    before = snapshot()
    last = structure.levels.get(position=3)
    url = reverse("tournaments:level_move", args=[structure.pk, last.pk])
    assert admin_client.post(url, {"direction": "down"}).status_code == 422
    assert admin_client.post(url, {"direction": "sideways"}).status_code == 400
    assert snapshot() == before


def test_edit_a_level_inline(admin_client, structure):
    level = structure.levels.get(position=3)
    editor = reverse("tournaments:structure_editor", args=[structure.pk])
    form = admin_client.get(editor, {"edit": level.pk}, **HTMX)
    assert b'id="level-edit"' in form.content and b'value="100"' in form.content
    url = reverse("tournaments:level_update", args=[structure.pk, level.pk])
    response = admin_client.post(url, level_data(100, 200, 25, minutes=15), **HTMX)
    assert response.status_code == 200
    assert rows(structure)[2] == (3, "play", 100, 200, 25, 15, None)
    audit = AuditEvent.objects.get(action="structure.level_changed")
    assert audit.data["before"]["ante"] == 0 and audit.data["after"]["ante"] == 25


def test_an_edit_that_goes_down_is_a_form_error_and_changes_nothing(admin_client, structure):
    before = snapshot()
    level = structure.levels.get(position=2)
    url = reverse("tournaments:level_update", args=[structure.pk, level.pk])
    response = admin_client.post(url, level_data(10, 25), **HTMX)
    assert response.status_code == 422
    text = response.content.decode()
    assert "Level 2: the small blind goes down (25 → 10)." in text
    assert 'id="level-edit"' in text  # the row stays open with what was typed
    assert snapshot() == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (level_data(100, 50), "The small blind cannot be above the big blind."),
        (level_data("", "", minutes=12), "The small and the big blind must be at least one chip."),
        (level_data(10, 20), "multiples of 25"),
        (level_data(200, 400, minutes=0), "Ensure this value is greater than or equal to 1."),
        (level_data(200, 400, chip_up=100), "the chip-up must take out 25"),
        (level_data(100, 200, kind="break"), "A break has no blinds and no ante."),
        (level_data("x", 200), "Enter a whole number."),
    ],
)
def test_bad_levels_are_refused_with_a_reason(admin_client, structure, data, message):
    # 10/20 is not made of 25s only when the set's smallest in play is 25.
    structure.smallest_chip = structure.chip_set.denominations.get(value=25)
    structure.save()
    before = snapshot()
    response = admin_client.post(
        reverse("tournaments:level_add", args=[structure.pk]), data, **HTMX
    )
    assert response.status_code == 422
    assert message in response.content.decode()
    assert snapshot() == before


def test_limit_small_blind_is_filled_in(admin_client):
    structure = make_structure(levels=((2, 5, 0, 12),))
    structure.game = "limit"
    structure.save()
    url = reverse("tournaments:level_add", args=[structure.pk])
    assert admin_client.post(url, level_data("", 10), **HTMX).status_code == 200
    assert blinds(structure) == [(2, 5), (5, 10)]
    assert admin_client.post(url, level_data(7, 20), **HTMX).status_code == 422


def test_presets_are_read_only(admin_client):
    deepstack = load_presets()[2]
    before = snapshot()
    level = deepstack.levels.get(position=1)
    editor = admin_client.get(reverse("tournaments:structure_editor", args=[deepstack.pk]))
    assert "Presets are read-only" in editor.content.decode()
    assert b'id="level-add"' not in editor.content
    for url, data in [
        (reverse("tournaments:level_add", args=[deepstack.pk]), level_data(5_000, 10_000)),
        (reverse("tournaments:level_update", args=[deepstack.pk, level.pk]), level_data(25, 50)),
        (reverse("tournaments:level_delete", args=[deepstack.pk, level.pk]), {}),
        (reverse("tournaments:level_move", args=[deepstack.pk, level.pk]), {"direction": "down"}),
    ]:
        response = admin_client.post(url, data, **HTMX)
        assert response.status_code == 422, url
        assert "Presets are read-only" in response.content.decode()
    assert snapshot() == before


def test_duplicate_a_preset(admin_client):
    deepstack = load_presets()[2]
    url = reverse("tournaments:structure_duplicate", args=[deepstack.pk])
    response = admin_client.post(url, {"name": "My deepstack"})
    copy = BlindStructure.objects.get(name="My deepstack")
    assert response.status_code == 302
    assert not copy.is_preset
    assert rows(copy) == rows(deepstack)
    assert AuditEvent.objects.filter(action="structure.duplicated").count() == 1


def test_duplicate_needs_a_new_name(admin_client, structure):
    before = snapshot()
    url = reverse("tournaments:structure_duplicate", args=[structure.pk])
    response = admin_client.post(url, {"name": structure.name})
    assert response.status_code == 422
    assert "A structure with this name exists." in response.content.decode()
    assert snapshot() == before


def test_export_and_import_round_trip(admin_client):
    deepstack = load_presets()[2]
    exported = admin_client.get(reverse("tournaments:structure_export", args=[deepstack.pk]))
    assert exported["Content-Disposition"] == 'attachment; filename="deepstack-r54.json"'
    document = json.loads(exported.content)
    assert document["version"] == 1 and len(document["levels"]) == 16
    response = admin_client.post(
        reverse("tournaments:structure_import"), {"text": exported.content.decode()}
    )
    copy = BlindStructure.objects.get(name="Deepstack (R5.4) (2)")
    assert response.status_code == 302
    assert rows(copy) == rows(deepstack)
    again = admin_client.get(reverse("tournaments:structure_export", args=[copy.pk]))
    assert json.loads(again.content) | {"name": document["name"]} == document


def test_import_reports_every_problem_and_changes_nothing(admin_client, structure):
    document = {
        "format": "floorman.blind_structure",
        "version": 1,
        "name": "Bad",
        "game": "no_limit",
        "starting_stack": 3_000,
        "chip_set": structure.chip_set.name,
        "smallest_chip": 25,
        "levels": [
            {"kind": "play", "small_blind": 50, "big_blind": 100, "ante": 0, "minutes": 10},
            {"kind": "play", "small_blind": 60, "big_blind": 50, "ante": 0, "minutes": 10},
        ],
    }
    before = snapshot()
    response = admin_client.post(
        reverse("tournaments:structure_import"), {"text": json.dumps(document)}
    )
    text = response.content.decode()
    assert response.status_code == 422
    assert "Level 2: the small blind cannot be above the big blind." in text
    assert "Level 2: the big blind goes down (100 → 50)." in text
    assert "Level 2: blinds and ante must be multiples of 25" in text
    assert snapshot() == before


def test_import_of_an_uploaded_file(admin_client, structure):
    from django.core.files.uploadedfile import SimpleUploadedFile

    exported = admin_client.get(reverse("tournaments:structure_export", args=[structure.pk]))
    upload = SimpleUploadedFile("s.json", exported.content, content_type="application/json")
    response = admin_client.post(reverse("tournaments:structure_import"), {"file": upload})
    assert response.status_code == 302
    assert rows(BlindStructure.objects.get(name=f"{structure.name} (2)")) == rows(structure)


def test_structure_page_draws_the_shape_for_a_field(client, db):
    sit_and_go = load_presets()[0]
    url = reverse("tournaments:structure_detail", args=[sit_and_go.pk])
    text = client.get(url).content.decode()
    assert 'value="10"' in text and 'value="3000"' in text
    assert "about 1.5 hours" in text
    assert "<polyline" in text
    bigger = client.get(url, {"players": 200, "stack": 3_000}).content.decode()
    assert "more than 2.0 hours" in bigger
    bad = client.get(url, {"players": "lots"})
    assert bad.status_code == 200 and "Enter a whole number." in bad.content.decode()


# --- the Django admin ----------------------------------------------------------------------------


def admin_post_data(structure, levels):
    data = {
        "name": structure.name,
        "description": "",
        "game": structure.game,
        "starting_stack": structure.starting_stack,
        "chip_set": structure.chip_set_id,
        "smallest_chip": "",
        "levels-TOTAL_FORMS": len(levels),
        "levels-INITIAL_FORMS": len(levels),
        "levels-MIN_NUM_FORMS": 0,
        "levels-MAX_NUM_FORMS": 1000,
    }
    for index, (level, (position, small, big)) in enumerate(levels):
        prefix = f"levels-{index}-"
        data |= {
            prefix + "id": level.pk,
            prefix + "structure": structure.pk,
            prefix + "position": position,
            prefix + "kind": "play",
            prefix + "small_blind": small,
            prefix + "big_blind": big,
            prefix + "ante": 0,
            prefix + "minutes": 12,
            prefix + "chip_up": "",
        }
    return data


def test_the_admin_refuses_an_invalid_structure(admin_client, structure):
    levels = list(structure.levels.order_by("position"))
    before = snapshot()
    data = admin_post_data(
        structure, [(levels[0], (1, 25, 50)), (levels[1], (2, 10, 25)), (levels[2], (3, 100, 200))]
    )
    url = reverse("admin:tournaments_blindstructure_change", args=[structure.pk])
    response = admin_client.post(url, data)
    assert response.status_code == 200  # the form again, with the errors
    assert "Level 2: the small blind goes down (25 → 10)." in response.content.decode()
    assert snapshot() == before


def test_the_admin_saves_swapped_positions(admin_client):
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 0, 12)), breaks_after=(0,))
    first, pause, second = structure.levels.order_by("position")
    data = admin_post_data(structure, [(first, (1, 25, 50)), (second, (2, 50, 100))])
    data |= {
        "levels-TOTAL_FORMS": 3,
        "levels-INITIAL_FORMS": 3,
        "levels-2-id": pause.pk,
        "levels-2-structure": structure.pk,
        "levels-2-position": 3,
        "levels-2-kind": "break",
        "levels-2-small_blind": 0,
        "levels-2-big_blind": 0,
        "levels-2-ante": 0,
        "levels-2-minutes": 10,
        "levels-2-chip_up": "",
    }
    url = reverse("admin:tournaments_blindstructure_change", args=[structure.pk])
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert [r[1] for r in rows(structure)] == ["play", "play", "break"]
