"""URLs of the seat lists, a player's seat, the chip-up race and the online tables."""

from django.urls import path

from tables import chipup_views, views
from tables.online import urls as online_urls

app_name = "tables"

urlpatterns = [
    path("events/<int:pk>/floor/tables/print/", views.floor_print, name="floor_print"),
    path("events/<int:pk>/floor/chip-up/", chipup_views.chip_up, name="chip_up"),
    path("e/<slug:code>/chip-up/", chipup_views.chip_up_banner, name="chip_up_banner"),
    path("e/<slug:code>/seats/", views.public_seats, name="public_seats"),
    path("e/<slug:code>/seats/<int:entry_id>/", views.my_seat, name="my_seat"),
    *online_urls.urlpatterns,
]
