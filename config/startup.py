"""The secret key: kept under var/ on the embedded default, required in production."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

MISSING_KEY = (
    "SECRET_KEY is not set. Floorman refuses to start with DEBUG off on a server database "
    "without it (sessions, CSRF tokens and signed links depend on it, and every process must "
    "share it). Set SECRET_KEY to a long random string, e.g. the output of "
    "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, and keep it secret "
    "(docs/operations.md#security)."
)


def kept_secret_key(path: Path) -> str:
    """The key stored at ``path``; the first process to need one writes it (mode 0600)."""
    if not path.exists():
        fresh = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
        # A hard link never replaces a key another process wrote first, and is never half-written.
        try:
            os.link(fresh, path)
        except FileExistsError:
            pass
        finally:
            fresh.unlink()
    return path.read_text().strip()


def require_secret_key() -> None:
    """Refuse to serve without SECRET_KEY unless DEBUG is on or this is the embedded default."""
    from django.conf import settings

    if settings.DEBUG or settings.FLOORMAN_EMBEDDED or os.environ.get("SECRET_KEY"):
        return
    raise ImproperlyConfigured(MISSING_KEY)
