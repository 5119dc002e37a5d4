// The queue as users deploy it (docker/queue-cluster.sh): Redis and workers in containers of the
// offline-built worker image on a private Docker network, Redis published on 127.0.0.1 for a
// coordinator on this host. For tests/queue-containers.test.ts and its faults.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
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
