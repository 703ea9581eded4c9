"""URLs of the online tables: lobby, tables, their stream, actions and hand histories."""

from django.urls import path

from tables.online import history_views as online_history_views
from tables.online import views as online_views

urlpatterns = [
    path("play/", online_views.lobby, name="online_lobby"),
    path("play/new/", online_views.open_table, name="online_open"),
    path("play/chips/", online_views.grant_chips, name="online_grant"),
    path("play/events/", online_views.stream, name="online_stream"),
    path("play/mine/", online_views.my_tables, name="online_mine"),
    path("play/t/<int:pk>/", online_views.table_page, name="online_table"),
    path("play/t/<int:pk>/state/", online_views.table_state, name="online_state"),
    path("play/t/<int:pk>/sit/", online_views.sit, name="online_sit"),
    path("play/t/<int:pk>/act/", online_views.act, name="online_act"),
    path("play/t/<int:pk>/sit-out/", online_views.sit_out, name="online_sit_out"),
    path("play/t/<int:pk>/back/", online_views.come_back, name="online_back"),
    path("play/t/<int:pk>/chips/", online_views.add_chips, name="online_add_chips"),
    path("play/t/<int:pk>/leave/", online_views.leave, name="online_leave"),
    path("play/t/<int:pk>/show/", online_views.show, name="online_show"),
    path("play/t/<int:pk>/close/", online_views.close, name="online_close"),
    path("play/t/<int:pk>/bots/", online_views.add_bot, name="online_add_bot"),
    path("play/t/<int:pk>/seats/<int:number>/remove/", online_views.unseat, name="online_unseat"),
    path(
        "play/t/<int:pk>/session.phh", online_history_views.session_phh, name="online_session_phh"
    ),
    path("play/history/", online_history_views.history, name="online_history"),
    path("play/history.phh", online_history_views.history_phh, name="online_history_phh"),
    path("play/hands/<int:pk>/", online_history_views.hand_detail, name="online_hand"),
    path("play/hands/<int:pk>.phh", online_history_views.hand_phh, name="online_hand_phh"),
]
