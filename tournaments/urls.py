"""URLs of events, structures and the clock's pages (its controls: scoring.floor_urls)."""

from django.urls import path

from tournaments import event_views, people_views, structure_urls, views

app_name = "tournaments"

urlpatterns = [
    path("e/<slug:code>/", views.event_phone, name="event_phone"),
    path("e/<slug:code>/tv/", views.event_tv, name="event_tv"),
    path("e/<slug:code>/clock/", views.event_clock, name="event_clock"),
    path("e/<slug:code>/events/", views.event_stream, name="event_stream"),
    path("events/", event_views.event_list, name="event_list"),
    path("events/new/", event_views.event_create, name="event_create"),
    path("events/<int:pk>/edit/", event_views.event_edit, name="event_edit"),
    path("events/<int:pk>/finish/", event_views.event_finish, name="event_finish"),
    path("signup/", people_views.signup, name="signup"),
    path("signups/", people_views.signup_pending, name="signup_pending"),
    path("signups/<int:pk>/", people_views.signup_decide, name="signup_decide"),
    *structure_urls.urlpatterns,
]
