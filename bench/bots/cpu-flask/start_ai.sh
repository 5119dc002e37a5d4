#!/usr/bin/env bash
# A CPU-bound Gomoku bot in Python/Flask for bench/concurrency.ts: exactly one argument, the port.
set -euo pipefail
if [ "$#" -ne 1 ]; then echo "usage: $0 <port>" >&2; exit 2; fi
cd "$(dirname "$0")"
exec python3 bot.py "$1"
