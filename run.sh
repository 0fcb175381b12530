#!/usr/bin/env bash
# Run the bot: set up .venv with the runtime requirements (requirements.txt) if needed, then start it with .env.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/venv.sh requirements.txt
exec .venv/bin/python bot.py "$@"
