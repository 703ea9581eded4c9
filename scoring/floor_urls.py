"""URLs of the floor: the dashboard with its clock controls, the seating page and its actions."""

from django.urls import path

from scoring import dashboard_views, floor_views

app_name = "floor"

urlpatterns = [
    path("events/<int:pk>/floor/", dashboard_views.event_floor, name="event_floor"),
    path("events/<int:pk>/clock/", dashboard_views.clock_action, name="clock_action"),
    path("events/<int:pk>/floor/tables/", floor_views.floor, name="tables"),
    path("events/<int:pk>/floor/tables/register/", floor_views.register, name="register"),
    path(
        "events/<int:pk>/floor/tables/entries/<int:entry_id>/check-in/",
        floor_views.check_in,
        name="check_in",
    ),
    path("events/<int:pk>/floor/tables/draw/", floor_views.draw, name="draw"),
    path("events/<int:pk>/floor/tables/seat/", floor_views.seat, name="seat"),
    path("events/<int:pk>/floor/tables/move/", floor_views.move, name="move"),
    path("events/<int:pk>/floor/tables/button/", floor_views.button, name="button"),
    path(
        "events/<int:pk>/floor/tables/plan/confirm/",
        floor_views.confirm_plan,
        name="confirm_plan",
    ),
]
