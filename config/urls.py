"""Floorman's URLs: the apps, the admin, log-in and the language switch."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scoring import home_views

urlpatterns = [
    path("", home_views.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.urls")),
    path("", include("tables.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.floor_urls")),
    path("", include("scoring.season_urls")),
    path("", include("scoring.payout_urls")),
    path("", include("scoring.online_event_urls")),
]
