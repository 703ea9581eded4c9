"""Floorman settings: one file; the environment picks the embedded default or production."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

# Generic admin and QuerySet classes (ModelAdmin[Event]) at run time, as the type checker sees them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("FLOORMAN_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    """A boolean from the environment: 1/true/yes/on are true."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)
# The embedded default is for one machine; production sets its own key.
SECRET_KEY = os.environ.get("SECRET_KEY", "floorman-embedded-default-change-me-in-production")
ALLOWED_HOSTS = [
    h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h
]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "config.apps.FloormanAdminConfig",  # django.contrib.admin, its site guarding secret fields
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "tournaments",
    "tables",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.selectors.roles",
            ],
        },
    },
]

# SQLite on the embedded default; DATABASE_URL=postgres://... (psycopg 3) in production.
_database_url = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'floorman.sqlite3'}")
# PostgreSQL: keep connections open in the page processes (opening one costs more than a clock
# fragment, bench/clock_phones.py); the event-stream process sets CONN_MAX_AGE=0 (Procfile).
_default_conn_age = "60" if _database_url.startswith("postgres") else "0"
DATABASES = {
    "default": dj_database_url.parse(
        _database_url,
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", _default_conn_age)),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web, worker, beat) share the file: wait for locks, write-ahead log.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_TZ = True
# docs/money.md: the house currency (ISO 4217); amounts are stored in its smallest unit.
FLOORMAN_CURRENCY = os.environ.get("FLOORMAN_CURRENCY", "EUR").upper()

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Redis when REDIS_URL is set (production); otherwise a broker and a bus that need no server.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    LIVE_BUS = "redis"
    # Sessions read from the shared cache, written through to the database: one query less on
    # every request (a table's fragment is fetched by every player after every move). Only with
    # Redis: a per-process cache would keep a logged-out session alive in the other workers.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    _broker_dir = VAR_DIR / "broker"
    for _folder in (_broker_dir, VAR_DIR / "broker-control"):
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "control_folder": str(VAR_DIR / "broker-control"),
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    LIVE_BUS = "db"
LIVE_BUS = os.environ.get("LIVE_BUS", LIVE_BUS)
# Event streams are served by the ASGI process; a WSGI server answers 204 (pages then poll) unless
# this allows a bounded stream per request (the threaded test server of the browser tests).
LIVE_WSGI_STREAM_SECONDS = float(os.environ.get("LIVE_WSGI_STREAM_SECONDS", "0"))
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# The clock reconciler records each level start once and pushes it (docs/architecture.md).
CLOCK_RECONCILE_SECONDS = float(os.environ.get("CLOCK_RECONCILE_SECONDS", "1.0"))
CELERY_BEAT_SCHEDULE = {
    "reconcile-clocks": {
        "task": "tournaments.tasks.reconcile_clocks",
        "schedule": CLOCK_RECONCILE_SECONDS,
        "options": {"expires": 10},
    },
    # Online tables: time-outs, house bots' moves and the next deal (docs/architecture.md).
    "sweep-tables": {
        "task": "tables.tasks.sweep_tables",
        "schedule": float(os.environ.get("TABLE_SWEEP_SECONDS", "0.5")),
        "options": {"expires": 5},
    },
    # Online events: the start, busts placed by the engine's results, balancing between hands.
    "run-online-events": {
        "task": "scoring.tasks.run_online_events",
        "schedule": float(os.environ.get("TABLE_SWEEP_SECONDS", "0.5")),
        "options": {"expires": 5},
    },
}
# The play chips a new player's account starts with (online tables).
FLOORMAN_PLAY_CHIPS = int(os.environ.get("FLOORMAN_PLAY_CHIPS", "10000"))
# House bots wait for a player before they deal; on (tests, demos of bots alone), they play.
FLOORMAN_BOTS_PLAY_ALONE = env_bool("FLOORMAN_BOTS_PLAY_ALONE", False)
# Scales the pauses between online hands and the house bots' thinking (1: as played).
FLOORMAN_TABLE_PACE = float(os.environ.get("FLOORMAN_TABLE_PACE", "1"))

# Sealed decks (tables/online/sealing.py, docs/operations.md): a running hand's deck and secret
# are stored encrypted with the first of these keys (base64 of 32 bytes, newest first; older
# keys still open their tokens). The embedded default keeps one in var/ (0600), made on first use.
FLOORMAN_SEAL_KEYS = [
    key.strip() for key in os.environ.get("FLOORMAN_SEAL_KEYS", "").split(",") if key.strip()
]
FLOORMAN_SEAL_KEY_FILE = VAR_DIR / "seal.key"
_server_database = DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3"
if not FLOORMAN_SEAL_KEYS and not DEBUG and (REDIS_URL or _server_database):
    raise ImproperlyConfigured(
        "FLOORMAN_SEAL_KEYS is not set: production (PostgreSQL or Redis, DEBUG off) needs a key "
        "to seal running hands' decks. Make one with `python -c 'import base64,os; "
        "print(base64.b64encode(os.urandom(32)).decode())'` and set FLOORMAN_SEAL_KEYS to it "
        '(docs/operations.md, "Sealing key").'
    )

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if not DEBUG and env_bool("HTTPS", False):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Even at DEBUG, Django's SQL log never prints a hand's deck or secret (tables.log_filters).
    "filters": {"hand_secrets": {"()": "tables.log_filters.HideHandSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["hand_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
