#!/usr/bin/env bash
# Run every check: set up .venv with requirements-dev.txt if needed, lint with ruff, then run the whole pytest suite.
# The PostgreSQL tests start a throwaway server from /usr/lib/postgresql/*/bin; when it is missing and this
# runs as root with apt-get, Debian's postgresql package is installed first (otherwise those tests skip,
# unless ICE_FLOE_REQUIRE_POSTGRES=1, as in CI, turns the skip into a failure). The table's browser tests drive
# Debian's chromium (installed the same way; ICE_FLOE_REQUIRE_BROWSER=1, as in CI, fails them when it is missing).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/venv.sh requirements-dev.txt
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing PostgreSQL for the storage and sharding tests ..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; } \
      || echo "Could not install PostgreSQL: its tests will skip." >&2
  else
    echo "PostgreSQL is not installed (apt-get install postgresql): its tests will skip." >&2
  fi
fi
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Chromium for the table's browser tests ..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
      || echo "Could not install Chromium: the table's browser tests will skip." >&2
  else
    echo "Chromium is not installed (apt-get install chromium): the table's browser tests will skip." >&2
  fi
fi
.venv/bin/ruff check --quiet .
exec .venv/bin/python -m pytest "$@"
