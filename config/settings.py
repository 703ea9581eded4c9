"""Floorman settings: one file; the environment picks the embedded default or production."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.startup import kept_secret_key

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
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
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
                "django.template.context_processors.csp",
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
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by PostgreSQL instead of quoted into each query's text by psycopg, and
    # a query run DB_PREPARE_THRESHOLD times on a connection prepared there: parsed and planned
    # once, not at every run (issue 17: a move runs the same ten statements every time;
    # bench/RESULTS.md, fifteenth pass). A pooler in transaction mode needs named prepared
    # statements supported (PgBouncer 1.21+, max_prepared_statements) or DB_PREPARE_THRESHOLD
    # set to "off" (docs/operations.md).
    _prepare = os.environ.get("DB_PREPARE_THRESHOLD", "5").strip().lower()
    _threshold = None if _prepare in {"off", "none", ""} else _prepare
    if _threshold is not None and not (_threshold.isdigit() and int(_threshold) > 0):
        raise ImproperlyConfigured(
            f"DB_PREPARE_THRESHOLD={_prepare!r}: a number of runs (1 or more) or 'off'"
        )
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options.setdefault("server_side_binding", True)
    _options.setdefault("prepare_threshold", None if _threshold is None else int(_threshold))
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
    CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": REDIS_URL}}
    LIVE_BUS = "redis"
    # Sessions read from the shared cache, written through to the database: one query less on
    # every request (a table's fragment is fetched by every player after every move). Only with
    # Redis: a per-process cache would keep a logged-out session alive in the other workers.
    SESSION_ENGINE = "config.sessions"  # cached_db that outlives a Redis restart
else:
    _broker_dir = VAR_DIR / "broker"
    for _folder in (_broker_dir, VAR_DIR / "broker-control"):
        _folder.mkdir(parents=True, exist_ok=True)
    # kombu's file-system transport, written atomically (config/broker.py, registered in
    # config/celery.py): a worker never reads a message half-written (issue 16).
    CELERY_BROKER_URL = "floorman-fs://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "control_folder": str(VAR_DIR / "broker-control"),
        # Look for messages every 0.1 s (kombu's default is 1 s): beat's half-second sweeps run
        # on time, and a worker told to stop notices within its 2-s drain instead of 4 s.
        "polling_interval": 0.1,
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    LIVE_BUS = "db"
LIVE_BUS = os.environ.get("LIVE_BUS", LIVE_BUS)
# Event streams are served by the ASGI process; a WSGI server answers 204 (pages then poll) unless
# this allows a bounded stream per request (the threaded test server of the browser tests).
LIVE_WSGI_STREAM_SECONDS = float(os.environ.get("LIVE_WSGI_STREAM_SECONDS", "0"))
# A change whose publishing failed (Redis out of reach from this process) is published again,
# as it then stands, after each of these pauses in turn (seconds; about a minute in all), then
# left to the pages' polls (tournaments.live). Empty: never again (the test suite, whose stray
# retries would land in later tests).
LIVE_PUBLISH_RETRY_SECONDS = tuple(
    float(s) for s in os.environ.get("LIVE_PUBLISH_RETRY_SECONDS", "1,2,4,8,15,30").split(",") if s
)
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes every database connection before and after each task unless
# this is set (then every 2 x this many tasks): a new PostgreSQL backend four times a second
# for the sweeper's and the director's ticks. Set, the worker closes them as a page process
# does, when unusable or older than CONN_MAX_AGE (config/celery.py).
CELERY_DB_REUSE_MAX = 10**9
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
# An all-in's board comes a street at a time, this many seconds apart (times the table pace);
# 0 deals it at once, as before (hands dealt then keep it to their end).
FLOORMAN_RUNOUT_PACE = float(os.environ.get("FLOORMAN_RUNOUT_PACE", "2"))

# --- Security (docs/operations.md#security): the secret key, CSP, HSTS, frames. ---
# The embedded default (SQLite on one machine) generates its key once and keeps it in var/; a
# server database without SECRET_KEY and DEBUG off refuses to serve (config/startup.py, called by
# the WSGI, ASGI and Celery entry points): a key must be the same on every machine.
FLOORMAN_EMBEDDED = DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
SECRET_KEY = os.environ.get("SECRET_KEY") or kept_secret_key(VAR_DIR / "secret_key")

# Sealed decks (tables/online/sealing.py, docs/operations.md): a running hand's deck and secret
# are stored encrypted with the first of these keys (base64 of 32 bytes, newest first; older
# keys still open their tokens). The embedded default keeps one in var/ (0600), made on first use.
FLOORMAN_SEAL_KEYS = [
    key.strip() for key in os.environ.get("FLOORMAN_SEAL_KEYS", "").split(",") if key.strip()
]
FLOORMAN_SEAL_KEY_FILE = VAR_DIR / "seal.key"
if not FLOORMAN_SEAL_KEYS and not DEBUG and (REDIS_URL or not FLOORMAN_EMBEDDED):
    raise ImproperlyConfigured(
        "FLOORMAN_SEAL_KEYS is not set: production (PostgreSQL or Redis, DEBUG off) needs a key "
        "to seal running hands' decks. Make one with `python -c 'import base64,os; "
        "print(base64.b64encode(os.urandom(32)).decode())'` and set FLOORMAN_SEAL_KEYS to it "
        '(docs/operations.md, "Sealing key").'
    )

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Every page: scripts from this site or carrying the response's nonce (templates write
# nonce="{{ csp_nonce }}" on an inline <script>; docs/architecture.md), no eval, no plug-ins, no
# framing (the online table's view allows its own origin for "My tables": FRAME_SELF_CSP).
# Styles: this site's files; style *attributes* stay allowed because templates set CSS custom
# properties in them (style="--i: 3", seat and chip positions); they cannot load anything, as
# img-src/font-src/connect-src stay 'self'. htmx's own indicator <style> is off
# (static/js/htmx-csp.js; floorman.css has the rules).
SECURE_CSP: dict[str, Any] = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
if not DEBUG and env_bool("HTTPS", False):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Browsers remember for a year to use HTTPS only (subdomains: opt in, they may not have TLS).
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
    SECURE_CSP["upgrade-insecure-requests"] = True
    # The proxy terminates TLS and says so (docs/operations.md#routing): HSTS goes out on HTTPS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
FRAME_SELF_CSP: dict[str, Any] = SECURE_CSP | {"frame-ancestors": [CSP.SELF]}
# --- end of the security block ---

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Even at DEBUG, Django's SQL log never prints a hand's deck or secret (tables.log_filters).
    "filters": {"hand_secrets": {"()": "tables.log_filters.HideHandSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["hand_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- Log-in attempts (django-axes, issue 16) ------------------------------------------------------
# Five wrong passwords lock the account and, separately, the address for 15 minutes (a 429 page
# that says so, templates/registration/locked_out.html); a right password resets the count.
# Every failure is kept (admin: Axes), each lockout is audited (tournaments.login_audit).
# Addresses are REMOTE_ADDR; behind a reverse proxy set TRUSTED_PROXY_COUNT (docs/operations.md).
INSTALLED_APPS += ["axes"]
MIDDLEWARE += ["axes.middleware.AxesMiddleware"]  # last, as axes requires
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
if _proxies := int(os.environ.get("TRUSTED_PROXY_COUNT", "0")):
    AXES_IPWARE_PROXY_COUNT = _proxies
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
