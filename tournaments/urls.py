"""URLs of events, structures and the clock."""

from django.urls import path

from tournaments import structure_urls, views

app_name = "tournaments"

urlpatterns = [
    path("e/<slug:code>/", views.event_phone, name="event_phone"),
    path("e/<slug:code>/tv/", views.event_tv, name="event_tv"),
    path("e/<slug:code>/clock/", views.event_clock, name="event_clock"),
    path("e/<slug:code>/events/", views.event_stream, name="event_stream"),
    path("events/<int:pk>/floor/", views.event_floor, name="event_floor"),
    path("events/<int:pk>/clock/", views.clock_action, name="clock_action"),
    *structure_urls.urlpatterns,
]
