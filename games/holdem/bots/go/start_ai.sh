#!/usr/bin/env bash
# CATArena start script: exactly one argument, the port. Builds the Go bot (standard library
# only, offline: GOPROXY=off) into a temporary folder, then runs it. Single source:
# games/core/go/start_ai.sh, copied into every Go bot folder by `node scripts/sync-bot-libs.mjs`.
set -euo pipefail
if [ "$#" -ne 1 ]; then echo "usage: $0 <port>" >&2; exit 2; fi
cd "$(dirname "$0")"
tmp="${TMPDIR:-/tmp}"
export GOCACHE="${GOCACHE:-$tmp/go-build}" GOPROXY=off GO111MODULE=on
bin="$tmp/catarena-go-bot-$1-$$"
# Low priority: the build must not starve the sandbox's relay, which answers health checks meanwhile.
nice -n 10 go build -o "$bin" ./*.go
# The running program keeps its file open: remove the binary from /tmp shortly after it starts.
( sleep 3; rm -f "$bin" ) &
exec "$bin" "$1"
