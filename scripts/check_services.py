"""Fail with a clear message unless PostgreSQL and Redis answer at DATABASE_URL and REDIS_URL."""

from __future__ import annotations

import os
import sys

import psycopg
import redis


def main() -> int:
    """Connect to both services once; print what is wrong and exit 1 if either is down."""
    problems = []
    database_url = os.environ["DATABASE_URL"]
    try:
        admin_url = database_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin_url, connect_timeout=5) as connection:
            connection.execute("select 1")
    except psycopg.Error as error:
        problems.append(f"PostgreSQL at {database_url}: {error}")
    try:
        redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5).ping()
    except redis.RedisError as error:
        problems.append(f"Redis at {os.environ['REDIS_URL']}: {error}")
    for problem in problems:
        print(f"cannot reach {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
