#!/usr/bin/env bash
# Create .venv if missing and install requirements.txt whenever it changed. Sourced by run.sh and test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"
if [ ! -x "$root/.venv/bin/python" ]; then
  echo "Creating the virtual environment in .venv ..." >&2
  "$python" -m venv "$root/.venv"
fi
stamp="$root/.venv/.requirements.sha256"
want="$(sha256sum "$root/requirements.txt" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing requirements.txt ..." >&2
  "$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/requirements.txt"
  echo "$want" > "$stamp"
fi
