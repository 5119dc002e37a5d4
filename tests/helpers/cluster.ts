// The queue as users deploy it (docker/queue-cluster.sh): Redis and workers in containers of the
// offline-built worker image on a private Docker network, Redis published on 127.0.0.1 for a
// coordinator on this host. For tests/queue-containers.test.ts and its faults.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { Queue } from 'bullmq';
import { connectQueue, PREFIX } from '../../orchestrator/queue/connection.ts';
import { PROJECT_ROOT } from '../../util/paths.ts';
import { allocatePort } from '../../sandbox/ports.ts';

export const CLUSTER_SCRIPT = path.join(PROJECT_ROOT, 'docker', 'queue-cluster.sh');

export const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', timeout: 120_000 }).trim();
/** A container's output, stdout and stderr interleaved (catarena writes its messages to stderr). */
export const dockerLogs = (container: string) =>
  execFileSync('sh', ['-c', 'docker logs "$1" 2>&1', 'sh', container], { encoding: 'utf8', timeout: 60_000 });

export interface TestCluster {
  name: string;
  /** redis://:password@127.0.0.1:port, for a coordinator on this host. */
  url: string;
  password: string;
  port: number;
  redis: string;
  worker: (i: number) => string;
  /** Runs `queue-cluster.sh <args>` with the cluster's environment. */
  script: (...args: string[]) => string;
  /** Every container of the cluster, running or not. */
  containers: () => string[];
  /** Processes in a container, seen from the host (`docker top`): [pid, command]. */
  processes: (container: string) => Array<{ pid: number; command: string }>;
}

export async function startCluster(options: {
  workers: number;
  image: string;
  workerArgs: string;
  /** The workers' CATARENA_REDIS_SOCKET_TIMEOUT_MS (queue-cluster.sh passes it on): default 20 s. */
  socketTimeoutMs?: number;
}): Promise<TestCluster> {
  const name = `catarena-test-${process.pid}`;
  const port = await allocatePort();
  const password = crypto.randomBytes(18).toString('hex');
  const env = {
    ...process.env,
    CLUSTER: name,
    IMAGE: options.image,
    REDIS_PORT: String(port),
    WORKER_ARGS: options.workerArgs,
    CATARENA_REDIS_PASSWORD: password,
    CATARENA_REDIS_SOCKET_TIMEOUT_MS: options.socketTimeoutMs ? String(options.socketTimeoutMs) : '',
  };
  const script = (...args: string[]) =>
    execFileSync('bash', [CLUSTER_SCRIPT, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  script('down'); // a run killed before its afterAll
  script('up', String(options.workers));
  return {
    name,
    url: `redis://:${password}@127.0.0.1:${port}`,
    password,
    port,
    redis: `${name}-redis`,
    worker: (i) => `${name}-worker-${i}`,
    script,
    containers: () =>
      docker('ps', '-a', '--filter', `label=catarena.cluster=${name}`, '--format', '{{.Names}}')
        .split('\n')
        .filter(Boolean)
        .sort(),
    processes: (container) =>
      docker('top', container, '-eo', 'pid,args')
        .split('\n')
        .slice(1)
        .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => Boolean(m))
        .map((m) => ({ pid: Number(m[1]), command: m[2]! })),
  };
}

/** Waits until `count` workers of the cluster listen on `queueName` (a worker exits if Redis is not there yet). */
export async function waitForClusterWorkers(
  cluster: Pick<TestCluster, 'url'>,
  count: number,
  queueName: string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const connection = await connectQueue(cluster.url);
    const queue = new Queue(queueName, { connection, prefix: PREFIX });
    let seen = 0;
    try {
      seen = (await queue.getWorkers()).length;
    } finally {
      await queue.close();
      connection.disconnect();
    }
    if (seen >= count) return;
    if (Date.now() > deadline) throw new Error(`${seen} of ${count} workers on ${queueName} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The cluster network's gateway: the host's address as its containers see it. */
export const clusterGateway = (cluster: Pick<TestCluster, 'name'>) =>
  docker('network', 'inspect', `${cluster.name}-net`, '--format', '{{(index .IPAM.Config 0).Gateway}}');

/**
 * Starts worker `i` as queue-cluster.sh's `worker` does (same flags), with more environment
 * variables passed by name (their values come from `env`), e.g. an agent's key and endpoint.
 */
export function startClusterWorker(
  cluster: Pick<TestCluster, 'name' | 'redis' | 'password' | 'worker'>,
  i: number,
  options: { image: string; workerArgs: string[]; env?: Record<string, string> },
): void {
  const name = cluster.worker(i);
  const names = Object.keys(options.env ?? {});
  execFileSync(
    'docker',
    [
      'run',
      '-d',
      '--init',
      '--name',
      name,
      '--hostname',
      name,
      '--label',
      `catarena.cluster=${cluster.name}`,
      '--network',
      `${cluster.name}-net`,
      '-e',
      'CATARENA_REDIS_PASSWORD',
      ...names.flatMap((n) => ['-e', n]),
      options.image,
      'catarena',
      'worker',
      '--queue',
      `redis://${cluster.redis}:6379`,
      '--name',
      name,
      '--work-dir',
      '/work/worker',
      ...options.workerArgs,
    ],
    {
      env: { ...process.env, ...options.env, CATARENA_REDIS_PASSWORD: cluster.password },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
}
