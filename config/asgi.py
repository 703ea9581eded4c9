"""ASGI entry point: the event streams in production, everything on the embedded default."""

import os

from django.core.asgi import get_asgi_application

from config.startup import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
require_secret_key()
