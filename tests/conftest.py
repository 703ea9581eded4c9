"""Shared pytest fixtures."""

from __future__ import annotations

import pytest

from tests import factories


@pytest.fixture
def floor_user(db):
    return factories.make_user(username="floor", role="floor")


@pytest.fixture
def admin_user(db):
    return factories.make_user(username="admin", role="admin")


@pytest.fixture
def player_user(db):
    return factories.make_user(username="player", role="player")
