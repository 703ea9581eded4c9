"""Production settings (issue 16): the secret key, the Content-Security-Policy, HSTS, frames."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tests import factories
from tests.tables.online_helpers import make_table

ROOT = Path(__file__).resolve().parents[1]


def _start(entry: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Import an entry point (as gunicorn/uvicorn do) in a fresh process with ``env``."""
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", FLOORMAN_VAR_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "-c", f"import {entry}; from django.conf import settings; "
         "print('KEY', settings.SECRET_KEY)"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_production_without_secret_key_refuses_to_start(entry, tmp_path):
    """DEBUG off, a server database, no SECRET_KEY: the server stops with the reason."""
    done = _start(entry, tmp_path, DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused")
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr
    assert "KEY" not in done.stdout


def test_production_with_secret_key_starts(tmp_path):
    done = _start(
        "config.wsgi", tmp_path, DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused",
        SECRET_KEY="a-long-random-production-key",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "KEY a-long-random-production-key" in done.stdout


def test_embedded_default_keeps_a_generated_key(tmp_path):
    """make run sets nothing: a random key is written once under var/ (0600) and kept."""
    first = _start("config.asgi", tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    second = _start("config.wsgi", tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    kept = (tmp_path / "secret_key").read_text().strip()
    assert len(kept) >= 50
    assert "floorman-embedded-default" not in kept
    assert f"KEY {kept}" in first.stdout
    assert f"KEY {kept}" in second.stdout
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def _policy(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return dict((part.strip().split(" ", 1) + [""])[:2] for part in header.split(";"))


@pytest.mark.django_db
def test_every_page_has_a_policy_with_the_nonce_of_its_scripts(client):
    """script-src allows this site and the response's nonce, never 'unsafe-inline'; every
    <script> on the page carries that nonce."""
    event = factories.make_event(code="csp1")
    for url in (
        reverse("home"),
        reverse("login"),
        reverse("tournaments:event_tv", args=[event.code]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        policy = _policy(response)
        assert "'unsafe-inline'" not in policy["script-src"]
        assert "'unsafe-eval'" not in policy["script-src"]
        nonce = re.search(r"'nonce-([\w-]+)'", policy["script-src"]).group(1)
        scripts = re.findall(r"<script[^>]*>", response.content.decode())
        assert scripts, url
        for tag in scripts:
            assert f'nonce="{nonce}"' in tag, (url, tag)
        assert policy["frame-ancestors"] == "'none'"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert policy["object-src"] == "'none'"


@pytest.mark.django_db
def test_two_responses_get_two_nonces(client):
    first = _policy(client.get(reverse("home")))["script-src"]
    second = _policy(client.get(reverse("home")))["script-src"]
    assert first != second


@pytest.mark.django_db
def test_the_online_table_may_be_framed_by_its_own_origin_only(client):
    """ "My tables" frames each table (same origin); no other site may."""
    table = make_table()
    response = client.get(reverse("tables:online_table", args=[table.pk]) + "?embed=1")
    assert response.status_code == 200
    assert _policy(response)["frame-ancestors"] == "'self'"
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert "'unsafe-inline'" not in _policy(response)["script-src"]


def test_hsts_only_with_https(tmp_path):
    """HTTPS=1: a year of HSTS on secure requests (the proxy's X-Forwarded-Proto); else none."""
    code = (
        "import django; django.setup(); from django.test import Client; "
        "r = Client().get('/accounts/login/', headers={'x-forwarded-proto': 'https'}, secure=True);"
        "print('HSTS', r.headers.get('Strict-Transport-Security'))"
    )
    base = {k: v for k, v in os.environ.items() if k not in {"HTTPS", "DEBUG"}}
    base.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        FLOORMAN_VAR_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        ALLOWED_HOSTS="testserver",
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=base, check=True)
    on = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base | {"HTTPS": "1"},
                        capture_output=True, text=True, timeout=120)  # fmt: skip
    off = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert "HSTS max-age=31536000" in on.stdout, on.stderr
    assert "HSTS None" in off.stdout, off.stderr


@pytest.mark.parametrize("command", ["worker", "beat"])
def test_a_production_worker_or_beat_without_secret_key_refuses_to_start(command, tmp_path):
    """Celery only logs an exception from a signal handler: the refusal must end the process."""
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        FLOORMAN_VAR_DIR=str(tmp_path),
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused",
    )
    extra = ["--pool", "solo"] if command == "worker" else ["--schedule", str(tmp_path / "s")]
    done = subprocess.run(
        [str(Path(sys.executable).with_name("celery")), "-A", "config", command, *extra],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert "SECRET_KEY is not set" in done.stderr
