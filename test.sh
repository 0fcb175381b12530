#!/usr/bin/env bash
# Run every check: set up .venv if needed, lint with ruff, then run the whole pytest suite.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/venv.sh
.venv/bin/ruff check --quiet .
exec .venv/bin/python -m pytest "$@"
