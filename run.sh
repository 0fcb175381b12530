#!/usr/bin/env bash
# Run the bot: set up .venv if needed, then start it with the settings in .env.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/venv.sh
exec .venv/bin/python bot.py "$@"
