"""Floorman's admin app: Django's, with the guarded site (config/admin.py, issue 16)."""

from __future__ import annotations

from django.contrib.admin.apps import AdminConfig


class FloormanAdminConfig(AdminConfig):
    """``django.contrib.admin`` whose default site guards every secret field."""

    default_site = "config.admin.FloormanAdminSite"
