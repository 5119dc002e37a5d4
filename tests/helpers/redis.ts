// A real redis-server for tests: on a free loopback port, its data in a temp folder, stoppable
// and restartable (with or without its append-only file) to test Redis going away mid-run.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

import { allocatePort } from '../../sandbox/ports.ts';
import { tcpOpen } from './bot-process.ts';
import { tempDir } from './bots.ts';

export const REDIS_SERVER = '/usr/bin/redis-server';

export function hasRedis(): boolean {
  return fs.existsSync(REDIS_SERVER);
}

export interface TestRedis {
  url: string;
  port: number;
  /** rediss://127.0.0.1:port when started with `tls`. */
  tlsUrl?: string;
  /** Stops the server (SIGKILL, like a crash) and waits for the port to close. */
  kill(): Promise<void>;
  /**
   * Starts it again on the same port; with persistence on, the data is back, unless `forget`
   * deletes it first (as if it had run without persistence: every key is gone).
   */
  start(options?: { forget?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

export interface TestRedisOptions {
  persistence?: boolean;
  /** Also listen for TLS on a second port with this certificate (clients are not asked for one). */
  tls?: { cert: string; key: string; ca: string };
  /** More redis-server arguments, e.g. ["--requirepass", "…"] or an ACL ["--user", "name", "on", ">pw", …]. */
  args?: string[];
}

export async function startRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  if (!hasRedis()) throw new Error(`${REDIS_SERVER} is missing: run "npm run setup" (installs redis-server)`);
  const port = await allocatePort();
  const tlsPort = options.tls ? await allocatePort() : undefined;
  const dir = tempDir('catarena-redis-');
  let child: ChildProcess | null = null;
  const tlsArgs = options.tls
    ? [
        '--tls-port',
        String(tlsPort),
        '--tls-cert-file',
        options.tls.cert,
        '--tls-key-file',
        options.tls.key,
        '--tls-ca-cert-file',
        options.tls.ca,
        '--tls-auth-clients',
        'no',
      ]
    : [];
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.persistence ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--maxmemory-policy',
    'noeviction',
    '--protected-mode',
    'no',
    ...tlsArgs,
    ...(options.args ?? []),
  ];
  const start = async ({ forget = false } = {}) => {
    if (forget) {
      if (child) throw new Error('redis-server is running: kill() it before forgetting its data');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
    }
    const proc = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    proc.stdout!.on('data', (c) => (output += c));
    proc.stderr!.on('data', (c) => (output += c));
    child = proc;
    const deadline = Date.now() + 10_000;
    while (!(await tcpOpen(port)) || (tlsPort && !(await tcpOpen(tlsPort)))) {
      if (proc.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server did not start on port ${port}:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
    child = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    tlsUrl: tlsPort ? `rediss://127.0.0.1:${tlsPort}` : undefined,
    kill,
    start,
    stop: async () => {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
