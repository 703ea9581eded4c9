#!/usr/bin/env bash
# Run the whole test suite: lint, types, unit, service, integration (PostgreSQL, Redis, Celery)
# and browser (Debian's Chromium) tests. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh dev
py=.venv/bin/python

export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/floorman}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
# Tests open connections in threads and subprocesses: close each one when its work is done.
export CONN_MAX_AGE=${CONN_MAX_AGE:-0}
# Production settings refuse to start without a sealing key (docs/operations.md): a test key.
export FLOORMAN_SEAL_KEYS=${FLOORMAN_SEAL_KEYS:-$($py -c 'import base64,os; print(base64.b64encode(os.urandom(32)).decode())')}
export CHROMIUM_PATH=${CHROMIUM_PATH:-/usr/bin/chromium}

if [ ! -x "$CHROMIUM_PATH" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Chromium at $CHROMIUM_PATH: apt-get install chromium" >&2
    exit 1
  fi
fi

# The integration tier needs the real services: fail with the reason, never skip.
$py scripts/check_services.py

$py -m ruff check .
$py -m ruff format --check .
$py -m mypy .
DATABASE_URL=sqlite://:memory: $py manage.py makemigrations --check --dry-run -v0
# Two processes by default: much of the suite waits on servers, workers and Chromium, and the
# machines it runs on have two cores. FLOORMAN_TEST_WORKERS=0 runs it in one process.
$py -m pytest -n "${FLOORMAN_TEST_WORKERS:-2}" --durations=25 "$@"
