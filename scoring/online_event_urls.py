"""URLs of online events' pages: the event, registration, the floor's controls."""

from django.urls import path

from scoring import online_event_views as views

app_name = "online_events"

urlpatterns = [
    path("play/e/<int:pk>/", views.event_page, name="event"),
    path("play/e/<int:pk>/field/", views.field_fragment, name="field"),
    path("play/e/<int:pk>/register/", views.register, name="register"),
    path("play/e/<int:pk>/unregister/", views.unregister, name="unregister"),
    path("play/e/<int:pk>/bots/", views.add_bots, name="add_bots"),
    path("play/e/<int:pk>/remove/<int:entry_id>/", views.remove_player, name="remove_player"),
]
