#!/usr/bin/env bash
# CATArena start script: exactly one argument, the port.
set -euo pipefail
if [ "$#" -ne 1 ]; then echo "usage: $0 <port>" >&2; exit 2; fi
cd "$(dirname "$0")"
exec node bot.mjs "$1"
