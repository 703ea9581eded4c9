"""Payout structures in the Django admin: rows checked on their own, every save audited."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from scoring.payout_models import PayoutStructure, PayoutTier
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db


def inline_data(name, rows):
    data = {
        "name": name,
        "description": "",
        "tiers-TOTAL_FORMS": str(len(rows)),
        "tiers-INITIAL_FORMS": "0",
        "tiers-MIN_NUM_FORMS": "0",
        "tiers-MAX_NUM_FORMS": "1000",
    }
    for index, (low, high, shares) in enumerate(rows):
        data |= {
            f"tiers-{index}-min_entries": str(low),
            f"tiers-{index}-max_entries": "" if high is None else str(high),
            f"tiers-{index}-percentages": shares,
        }
    return data


def test_the_admin_saves_a_structure_with_its_rows_and_audits_it(client, admin_user):
    client.force_login(admin_user)
    response = client.post(
        "/admin/scoring/payoutstructure/add/",
        inline_data("Admin table", [(2, 5, "[10000]"), (6, None, "[6500, 3500]")]),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    structure = PayoutStructure.objects.get(name="Admin table")
    assert [r.percentages for r in structure.rows()] == [(10_000,), (6_500, 3_500)]
    audit = AuditEvent.objects.get(action="payouts.admin_saved")
    assert audit.actor == admin_user and audit.data["problems"] == []


def test_the_admin_refuses_a_row_that_does_not_add_up(client, admin_user):
    client.force_login(admin_user)
    response = client.post(
        "/admin/scoring/payoutstructure/add/",
        inline_data("Bad table", [(2, 5, "[6000, 3000]")]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "The percentages add up to 90% instead of 100%." in response.content.decode()
    assert not PayoutStructure.objects.filter(name="Bad table").exists()
    assert not AuditEvent.objects.exists()


def test_a_row_of_anything_but_whole_basis_points_is_refused():
    tier = PayoutTier(min_entries=2, max_entries=None, percentages=["50", 50.5])
    with pytest.raises(ValidationError):
        tier.clean()


def test_deleting_a_structure_in_the_admin_is_audited(client, admin_user):
    client.force_login(admin_user)
    structure = PayoutStructure.objects.create(name="Gone")
    response = client.post(
        f"/admin/scoring/payoutstructure/{structure.pk}/delete/", {"post": "yes"}
    )
    assert response.status_code == 302
    assert AuditEvent.objects.get(action="payouts.admin_deleted").data["name"] == "Gone"
