#!/bin/bash
# Makes a Docker daemon available for the Docker sandbox and `npm run images` (Debian 12).
# Idempotent: exits 0 at once when `docker info` works. Otherwise, as root: installs docker.io
# (only if dockerd is missing), starts dockerd in the background (log: /var/log/catarena-dockerd.log)
# and waits up to 60 s for it. Also installs debootstrap, which the offline image build needs.
# Exits 1 with a message saying what is wrong when Docker cannot be made to work.
set -uo pipefail
started=
LOG=/var/log/catarena-dockerd.log
WAIT=60
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
say() { echo "start-docker: $*" >&2; }
is_root() { [ "$(id -u)" = 0 ]; }
docker_ok() { timeout 20 docker info >/dev/null 2>&1; }

apt_install() {
  say "installing $*"
  if ! apt-get update -qq || ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; then
    say "apt-get install $* failed"
    return 1
  fi
}

# debootstrap: not needed to run containers, only to build the image; a failure here is a warning.
if ! command -v debootstrap >/dev/null 2>&1; then
  if is_root; then
    apt_install debootstrap || say "WARNING: could not install debootstrap; \`npm run images\` can then only import a cached rootfs"
  else
    say "WARNING: debootstrap is missing (as root: apt-get install debootstrap)"
  fi
fi

if docker_ok; then
  say "docker daemon is running ($(docker info --format '{{.ServerVersion}}' 2>/dev/null))"
  exit 0
fi

if ! is_root; then
  if command -v docker >/dev/null 2>&1; then
    say "cannot reach the Docker daemon ($(docker info 2>&1 >/dev/null | tail -1))."
    say "run this script as root to start dockerd, or add this user to the docker group."
  else
    say "docker is not installed; run this script as root (it installs docker.io and starts dockerd)."
  fi
  exit 1
fi

if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
  apt_install docker.io || { say "cannot install docker.io; install it and start dockerd by hand"; exit 1; }
fi

# Start dockerd unless one is already running (e.g. still starting up, or started by systemd).
if pgrep -x dockerd >/dev/null 2>&1; then
  say "dockerd is already running (pid $(pgrep -x dockerd | head -1)); waiting for it to answer"
else
  say "starting dockerd (log: $LOG)"
  mkdir -p "$(dirname "$LOG")"
  echo "=== $(date -Is) start-docker.sh: starting dockerd" >>"$LOG"
  setsid nohup dockerd >>"$LOG" 2>&1 </dev/null &
  started=$!
fi
dockerd_alive() { if [ -n "${started:-}" ]; then kill -0 "$started" 2>/dev/null; else pgrep -x dockerd >/dev/null 2>&1; fi; }

for ((i = 0; i < WAIT; i++)); do
  if docker_ok; then
    say "docker daemon is up after ${i}s ($(docker info --format '{{.ServerVersion}}' 2>/dev/null))"
    exit 0
  fi
  if ! dockerd_alive; then
    say "dockerd exited; last lines of $LOG:"
    tail -15 "$LOG" >&2
    exit 1
  fi
  sleep 1
done
say "dockerd did not answer within ${WAIT}s; last lines of $LOG:"
tail -15 "$LOG" >&2
exit 1
