"""URLs of events, structures and the clock."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("e/<slug:code>/", views.event_phone, name="event_phone"),
    path("structures/<int:pk>/", views.structure_detail, name="structure_detail"),
]
