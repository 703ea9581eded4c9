"""URLs of seasons, players, result exports and super-final stacks."""

from django.urls import path

from scoring import season_views

app_name = "seasons"

urlpatterns = [
    path("seasons/<int:pk>/", season_views.season_detail, name="season_detail"),
    path("seasons/<int:pk>/chart/", season_views.season_chart_fragment, name="season_chart"),
    path("seasons/<int:pk>/formula/", season_views.season_formula, name="season_formula"),
    path(
        "seasons/<int:pk>/standings.csv",
        season_views.season_standings_csv,
        name="season_standings_csv",
    ),
    path("players/<int:pk>/", season_views.player_detail, name="player_detail"),
    path("events/<int:pk>/results.csv", season_views.event_results_csv, name="event_results_csv"),
    path(
        "events/<int:pk>/floor/super-final/",
        season_views.super_final_stacks,
        name="super_final_stacks",
    ),
]
