#!/usr/bin/env bash
# CATArena start script: exactly one argument, the port. The LLM-player bot (plain node ≥ 18, no
# dependencies); its game, rule set and model are in game.json, its API key in the environment.
set -euo pipefail
if [ "$#" -ne 1 ]; then echo "usage: $0 <port>" >&2; exit 2; fi
cd "$(dirname "$0")"
exec node bot.mjs "$1"
