#!/usr/bin/env bash
# Create .venv with Python 3.12+ and install the pinned requirements (runtime, or dev with "dev").
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-runtime}
req=requirements.txt
[ "$want" = dev ] && req=requirements-dev.txt

if [ ! -x .venv/bin/python ]; then
  py=""
  for candidate in python3.12 /root/.pyenv/versions/3.12*/bin/python3 /usr/bin/python3.12 python3.13 /root/.pyenv/versions/3.13*/bin/python3 /usr/bin/python3.13 python3; do
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
      py=$candidate
      break
    fi
  done
  if [ -z "$py" ]; then
    echo "Floorman needs Python 3.12 or newer; none was found (tried python3.13, python3.12)." >&2
    exit 1
  fi
  echo "Creating .venv with $("$py" --version)"
  "$py" -m venv .venv
fi

stamp=".venv/.installed-$want"
digest=$(cat requirements.txt "$req" | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$digest" ]; then
  echo "Installing $req into .venv"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r "$req"
  echo "$digest" > "$stamp"
fi
