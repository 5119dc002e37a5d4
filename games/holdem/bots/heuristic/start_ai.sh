#!/usr/bin/env bash
# CATArena start script: exactly one argument, the port.
set -euo pipefail
if [ "$#" -ne 1 ]; then echo "usage: $0 <port>" >&2; exit 2; fi
# The script's folder without a $(dirname) subshell: that fork costs every bot start ~9 ms of CPU.
case "$0" in */*) cd "${0%/*}" ;; esac
exec node bot.mjs "$1"
