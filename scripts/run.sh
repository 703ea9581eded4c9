#!/usr/bin/env bash
# Run Floorman on its embedded default: SQLite, a Celery worker and beat on a file broker, one
# web process, kept up by scripts/supervise.py. Migrates, loads the presets, a demo event and a
# demo online table with two house bots, prints the URLs and the logins.
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

# The web process, a Celery worker and beat, each started again if it dies; Ctrl-C stops them
# all within a few seconds, open event streams included (docs/operations.md).
exec $py scripts/supervise.py --port "$port"
