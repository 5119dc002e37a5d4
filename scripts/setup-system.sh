#!/bin/bash
# Installs the Debian packages the tests and CATArena bots need (root, Debian 12): Flask and numpy
# for CATArena's Python bots, scikit-learn and Go for the ml and go task tracks (docs/tracks.md: in
# the process sandbox bots use the host's), redis-server for the queue, chromium for the HTML report tests,
# wamerican (/usr/share/dict/words) for the Undercover statement-check test, bubblewrap and socat for
# the default (isolated process) sandbox: bwrap gives each bot its namespaces, socat relays its ports.
# Idempotent: installs only what is missing.
set -euo pipefail
need=()
/usr/bin/python3 -c 'import flask, requests' 2>/dev/null || need+=(python3-flask python3-requests)
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
# Task tracks: the ml track's bots (and the offline agents' model training) use Debian's scikit-learn
# 1.2, the go track's bots build with Debian's Go 1.19 (standard library only, no module downloads).
# Without their recommends (matplotlib, pytest, …: hundreds of MB no bot needs), as in the bot image.
lean=()
/usr/bin/python3 -c 'import sklearn' 2>/dev/null || lean+=(python3-sklearn)
[ -x /usr/bin/go ] || lean+=(golang-go)
# The isolated process sandbox (sandbox/isolated.ts): bubblewrap, and socat inside it for the relays.
[ -x /usr/bin/bwrap ] || need+=(bubblewrap)
[ -x /usr/bin/socat ] || need+=(socat)
# The queue tests start their own redis-server on a loopback port (nothing runs as a service).
[ -x /usr/bin/redis-server ] || need+=(redis-server)
# The HTML report and replay viewer are tested in Debian's Chromium (through playwright-core; no browser download).
[ -x /usr/bin/chromium ] || need+=(chromium)
# Undercover's statement check is tested against an English word list (tests/undercover-statement-check.test.ts).
[ -f /usr/share/dict/words ] || need+=(wamerican)
if ((${#need[@]} + ${#lean[@]})); then
  if [ "$(id -u)" != 0 ]; then echo "setup: run as root (or install: ${need[*]} ${lean[*]})" >&2; exit 1; fi
  echo "setup: installing ${need[*]} ${lean[*]}"
  apt-get update -qq
  if ((${#need[@]})); then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; fi
  if ((${#lean[@]})); then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${lean[@]}" >/dev/null; fi
fi
echo "setup: system packages ready"
