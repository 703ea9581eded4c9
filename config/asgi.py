"""ASGI entry point: the event streams in production, everything on the embedded default."""

import os

from config.asgi_files import get_application
from config.startup import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_application()  # Django's, static files read as the loop wants them
require_secret_key()
