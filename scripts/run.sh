#!/usr/bin/env bash
# Run Floorman on its embedded default: SQLite, a Celery worker and beat on a file broker, one
# web process. Migrates, loads the presets, a demo event and a demo online table with two house
# bots, prints the URLs and the logins.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh runtime
export DJANGO_SETTINGS_MODULE=config.settings
unset DATABASE_URL REDIS_URL
port=${PORT:-8000}
py=.venv/bin/python

$py manage.py migrate --noinput -v0
$py manage.py floorman_setup --url "http://127.0.0.1:$port"
$py manage.py floorman_tables --url "http://127.0.0.1:$port"

pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

.venv/bin/celery -A config worker --beat --concurrency 1 --loglevel WARNING \
  --schedule "${FLOORMAN_VAR_DIR:-var}/celerybeat-schedule" &
pids+=($!)
.venv/bin/uvicorn config.asgi:application --host 127.0.0.1 --port "$port" --log-level warning &
pids+=($!)
wait -n "${pids[@]}"
