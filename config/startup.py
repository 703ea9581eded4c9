"""The secret key: kept under var/ on the embedded default, required in production."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

MISSING_KEY = (
    "SECRET_KEY is not set. Floorman refuses to start with DEBUG off on a server database "
    "without it (sessions, CSRF tokens and signed links depend on it, and every process must "
    "share it). Set SECRET_KEY to a long random string, e.g. the output of "
    "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, and keep it secret "
    "(docs/operations.md#security)."
)


def kept_secret(path: Path, make: Callable[[], str]) -> tuple[str, bool]:
    """The secret stored at ``path`` and whether this call wrote it (``make()``, mode 0600)."""
    made = False
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(make() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        # A hard link never replaces a key another process wrote first, and is never half-written.
        try:
            os.link(fresh, path)
            made = True
        except FileExistsError:
            pass
        finally:
            fresh.unlink()
    return path.read_text(encoding="ascii").strip(), made


def kept_secret_key(path: Path) -> str:
    """Django's SECRET_KEY kept at ``path``; the first process to need one writes it."""
    return kept_secret(path, lambda: secrets.token_urlsafe(50))[0]


def require_secret_key() -> None:
    """Refuse to serve without SECRET_KEY unless DEBUG is on or this is the embedded default."""
    from django.conf import settings

    if settings.DEBUG or settings.FLOORMAN_EMBEDDED or os.environ.get("SECRET_KEY"):
        return
    raise ImproperlyConfigured(MISSING_KEY)
