"""URLs of bust-outs, quits, the agreed stop, undo/redo and the public standings."""

from django.urls import path

from scoring import money_views, views

app_name = "scoring"

urlpatterns = [
    path("events/<int:pk>/floor/busts/", views.record_busts, name="record_busts"),
    path("events/<int:pk>/floor/quit/", views.record_quit, name="record_quit"),
    path("events/<int:pk>/floor/stop/", views.agreed_stop, name="agreed_stop"),
    path("events/<int:pk>/floor/buy/", money_views.buy, name="buy"),
    path("events/<int:pk>/floor/buy/take-back/", money_views.void, name="void"),
    path("events/<int:pk>/floor/undo/", views.undo, name="undo"),
    path("events/<int:pk>/floor/redo/", views.redo, name="redo"),
    path("events/<int:pk>/floor/hand-done/", views.hand_done, name="hand_done"),
    path(
        "events/<int:pk>/floor/hand-done/take-back/",
        views.take_back_hand_done,
        name="take_back_hand_done",
    ),
    path("e/<slug:code>/standings/", views.standings_fragment, name="standings"),
]
