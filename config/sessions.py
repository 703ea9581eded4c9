"""Sessions read from the shared cache and written through to the database (Django's
``cached_db``), that outlive the cache for a moment.

Django's ``cached_db`` falls back to the database when the cache cannot be read, then puts what it
read back into the cache, and that write raised: while Redis restarted, every request of a
logged-in player or floor member answered 500 (bench/online_tables.py with Redis stopped for 3 s:
bench/RESULTS.md, issue 17, nineteenth pass). The database holds every session, so a session is
read from it alone then. Saving and deleting still need the cache: a log-out whose cache entry
could not be dropped must fail, not leave the session alive there.
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from django.contrib.sessions.backends import cached_db

logger = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self) -> dict[str, Any]:
        try:
            return super().load()
        except redis.RedisError as error:
            logger.warning(
                "the session cache failed (%s): the session is read from the database", error
            )
            found = self._get_session_from_db()  # type: ignore[attr-defined]  # Django's, unstubbed
            return self.decode(found.session_data) if found else {}
