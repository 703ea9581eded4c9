"""URLs of the floor's seating page and the public seat list."""

from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("events/<int:pk>/floor/tables/", views.floor, name="floor"),
    path("events/<int:pk>/floor/tables/print/", views.floor_print, name="floor_print"),
    path("events/<int:pk>/floor/tables/register/", views.register, name="register"),
    path(
        "events/<int:pk>/floor/tables/entries/<int:entry_id>/check-in/",
        views.check_in,
        name="check_in",
    ),
    path("events/<int:pk>/floor/tables/draw/", views.draw, name="draw"),
    path("events/<int:pk>/floor/tables/seat/", views.seat, name="seat"),
    path("events/<int:pk>/floor/tables/move/", views.move, name="move"),
    path("events/<int:pk>/floor/tables/button/", views.button, name="button"),
    path("events/<int:pk>/floor/tables/plan/confirm/", views.confirm_plan, name="confirm_plan"),
    path("e/<slug:code>/seats/", views.public_seats, name="public_seats"),
    path("e/<slug:code>/seats/<int:entry_id>/", views.my_seat, name="my_seat"),
]
