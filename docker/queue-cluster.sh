#!/bin/bash
# Redis and N catarena workers, each in its own container (own network namespace and file
# system) on a private Docker network; nothing is shared but Redis. Only Redis's port is
# published, on 127.0.0.1, for a coordinator on this host. docs/deploy.md explains each line;
# tests/queue-containers.test.ts runs exactly this script.
#
#   docker/queue-cluster.sh up N        network, Redis, workers 1..N (the image: npm run images:worker)
#   docker/queue-cluster.sh worker I    start worker I again (or one more)
#   docker/queue-cluster.sh down        remove every container of the cluster and its network
#
# Environment:
#   CATARENA_REDIS_PASSWORD  Redis's password (required; e.g. openssl rand -hex 24); passed to the
#                            containers by name, never on a command line
#   CLUSTER                  name prefix of the containers and the network (default catarena)
#   IMAGE                    the worker image (default catarena/worker:latest)
#   REDIS_PORT               the port published on 127.0.0.1 (default 6379)
#   WORKER_ARGS              more `catarena worker` flags, e.g. "--concurrency 2 --lock-ms 10000"
#   CATARENA_REDIS_SOCKET_TIMEOUT_MS  passed to the workers when set: how long an unanswered command
#                            takes to count a link as dead (default 20000; tests cut links for seconds)
set -euo pipefail
CLUSTER=${CLUSTER:-catarena}
IMAGE=${IMAGE:-catarena/worker:latest}
REDIS_PORT=${REDIS_PORT:-6379}
WORKER_ARGS=${WORKER_ARGS:-}
NET="$CLUSTER-net"
LABEL="catarena.cluster=$CLUSTER"

need_password() {
  if [ -z "${CATARENA_REDIS_PASSWORD:-}" ]; then
    echo "queue-cluster: set CATARENA_REDIS_PASSWORD (e.g. export CATARENA_REDIS_PASSWORD=\$(openssl rand -hex 24))" >&2
    exit 2
  fi
}

start_redis() {
  # Append-only file (fsync every second), never evict queue keys, a password. The password goes
  # into a config file inside the container, not onto redis-server's command line (ps shows that).
  docker run -d --name "$CLUSTER-redis" --hostname "$CLUSTER-redis" --label "$LABEL" \
    --network "$NET" -p "127.0.0.1:$REDIS_PORT:6379" -e CATARENA_REDIS_PASSWORD "$IMAGE" \
    sh -c 'mkdir -p /data && printf "requirepass \"%s\"\n" "$CATARENA_REDIS_PASSWORD" > /data/auth.conf &&
      exec redis-server /data/auth.conf --dir /data --appendonly yes --appendfsync everysec \
        --maxmemory-policy noeviction --protected-mode no'
}

start_worker() {
  local name="$CLUSTER-worker-$1"
  docker rm -f "$name" >/dev/null 2>&1 || true
  # --init reaps the bots' exited processes and forwards SIGTERM (a drain) to the worker.
  # --sandbox unsafe: bubblewrap cannot make namespaces inside the container, which is the bots'
  # only isolation here (WORKER_ARGS may say otherwise: the last --sandbox wins).
  # shellcheck disable=SC2086 # WORKER_ARGS is a list of flags
  docker run -d --init --name "$name" --hostname "$name" --label "$LABEL" \
    --network "$NET" -e CATARENA_REDIS_PASSWORD -e CATARENA_REDIS_SOCKET_TIMEOUT_MS "$IMAGE" \
    catarena worker --queue "redis://$CLUSTER-redis:6379" --name "$name" --work-dir /work/worker --sandbox unsafe $WORKER_ARGS
}

case "${1:-}" in
  up)
    need_password
    n=${2:-2}
    docker network create --label "$LABEL" "$NET" >/dev/null
    start_redis
    # Workers that find no Redis exit at once: wait until it answers.
    for _ in $(seq 1 100); do
      docker exec "$CLUSTER-redis" sh -c 'REDISCLI_AUTH="$CATARENA_REDIS_PASSWORD" redis-cli ping' 2>/dev/null | grep -q PONG && break
      sleep 0.2
    done
    for i in $(seq 1 "$n"); do start_worker "$i"; done
    ;;
  worker)
    need_password
    start_worker "${2:?worker number}"
    ;;
  down)
    ids=$(docker ps -aq --filter "label=$LABEL")
    # shellcheck disable=SC2086
    [ -z "$ids" ] || docker rm -f $ids >/dev/null
    docker network rm "$NET" >/dev/null 2>&1 || true
    ;;
  *)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
