#!/usr/bin/env bash
# CATArena start script: exactly one argument, the port. The model (model.pkl) is trained when
# the bot is built (python3 train.py), not here: a bot without one does not start.
set -euo pipefail
if [ "$#" -ne 1 ]; then echo "usage: $0 <port>" >&2; exit 2; fi
cd "$(dirname "$0")"
if [ ! -f model.pkl ]; then echo "no model.pkl: run python3 train.py first" >&2; exit 1; fi
exec python3 -u bot.py "$1"
