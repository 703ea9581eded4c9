"""URLs of the payout editor, an event's payouts and the deal calculator."""

from django.urls import path

from scoring import deal_views, payout_views

app_name = "payouts"

urlpatterns = [
    path("payouts/", payout_views.structure_list, name="structure_list"),
    path("payouts/new/", payout_views.structure_create, name="structure_create"),
    path("payouts/<int:pk>/", payout_views.structure_editor, name="structure_editor"),
    path(
        "payouts/<int:pk>/duplicate/",
        payout_views.structure_duplicate,
        name="structure_duplicate",
    ),
    path("payouts/<int:pk>/rows/", payout_views.row_add, name="row_add"),
    path("payouts/<int:pk>/rows/<int:tier_pk>/", payout_views.row_update, name="row_update"),
    path("payouts/<int:pk>/rows/<int:tier_pk>/delete/", payout_views.row_delete, name="row_delete"),
    path("events/<int:pk>/payouts/", deal_views.event_payout_settings, name="event_payouts"),
    path("events/<int:pk>/floor/deal/", deal_views.deal, name="deal"),
    path(
        "events/<int:pk>/floor/deal/<int:deal_pk>/cancel/",
        deal_views.deal_cancel,
        name="deal_cancel",
    ),
]
