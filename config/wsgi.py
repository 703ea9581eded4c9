"""WSGI entry point for pages and actions (gunicorn in production)."""

import os

from django.core.wsgi import get_wsgi_application

from config.startup import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
require_secret_key()
