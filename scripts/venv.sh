#!/usr/bin/env bash
# Create .venv if missing and install a requirements file (default requirements.txt) whenever it, or a file it
# includes with -r, changed since the last install. Run by run.sh (requirements.txt) and test.sh
# (requirements-dev.txt, which includes requirements.txt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"
file="${1:-requirements.txt}"
if [ ! -x "$root/.venv/bin/python" ]; then
  echo "Creating the virtual environment in .venv ..." >&2
  "$python" -m venv "$root/.venv"
fi
included="$(sed -n 's/^[[:space:]]*-r[[:space:]]*//p' "$root/$file")"
want="$(cd "$root" && cat "$file" $included | sha256sum | cut -d' ' -f1)"
stamp="$root/.venv/.stamp-$file.sha256"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing $file ..." >&2
  "$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/$file"
  echo "$want" > "$stamp"
fi
