// The Redis connection behind the queue: one URL (`--queue redis://host:6379[/db]`), a probe that
// fails fast with an error that says what to do, and a watch that reports Redis going away and
// coming back instead of hanging silently.
import { Queue, type ConnectionOptions } from 'bullmq';
import fs from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';

import { PREFIX } from './names.ts';
import { parseQueueUrl, publicQueueUrl, QueueUnavailableError, REDIS_ENV, redisCredentials } from './url.ts';

export { MATCH_QUEUE, PREFIX, TOURNEY_QUEUE } from './names.ts';

export { publicQueueUrl, QueueUnavailableError } from './url.ts';

/** How long a command may go unanswered before its connection counts as dead (see redisOptions). */
export const SOCKET_TIMEOUT_MS = 20_000;

/** How long a run (or a night) waits for an unreachable Redis before it stops, unless told otherwise. */
export const QUEUE_GRACE_MS = 60_000;

/**
 * SOCKET_TIMEOUT_MS, or CATARENA_REDIS_SOCKET_TIMEOUT_MS: a test's knob, so that it cuts a network
 * for seconds instead of half a minute. At least 6 s: above an idle worker's 5 s blocking reads.
 */
export function socketTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.CATARENA_REDIS_SOCKET_TIMEOUT_MS;
  if (!value) return SOCKET_TIMEOUT_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 6_000)
    throw new QueueUnavailableError(
      `CATARENA_REDIS_SOCKET_TIMEOUT_MS=${value}: give whole milliseconds, at least 6000, or unset it (default ${SOCKET_TIMEOUT_MS})`,
    );
  return ms;
}

/** Checks the URL's shape ("redis://host:port[/db]" or rediss://). */
export function checkQueueUrl(url: string): string {
  parseQueueUrl(url);
  return url;
}

/**
 * Connection options from the URL and CATARENA_REDIS_* (user, password, CA file), as BullMQ needs
 * them: commands wait through reconnects (maxRetriesPerRequest null), which reconnect quickly at
 * first, then every 2 s, forever; the RedisWatch decides when to give up. Workers and event
 * listeners get their own connections.
 */
export function redisOptions(url: string): RedisOptions {
  const u = parseQueueUrl(url);
  const { username, password, caFile } = redisCredentials(u);
  if (caFile && u.protocol !== 'rediss:')
    throw new QueueUnavailableError(
      `${REDIS_ENV.caFile} is set but --queue ${publicQueueUrl(url)} is not TLS; use rediss:// to verify Redis with that CA`,
    );
  let ca: Buffer | undefined;
  try {
    ca = caFile ? fs.readFileSync(caFile) : undefined;
  } catch (err) {
    throw new QueueUnavailableError(
      `cannot read ${REDIS_ENV.caFile}=${caFile} (${(err as Error).message}); point it at the PEM file of the CA that signed Redis's certificate`,
    );
  }
  return {
    host: u.hostname || '127.0.0.1',
    port: Number(u.port || 6379),
    db: Number(u.pathname.slice(1) || 0),
    username,
    password,
    tls: u.protocol === 'rediss:' ? (ca ? { ca } : {}) : undefined,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    // A link that dies without a reset (a cut network, a frozen host) leaves the socket open and
    // every command waiting: with no reply this long to a command sent, the socket is dropped and
    // reconnected. Longer than BullMQ's blocking reads (at most 10 s).
    socketTimeout: socketTimeoutMs(),
  };
}

/** What to do about a failed connection, by its cause: credentials and certificates get their own advice. */
function connectAdvice(url: string, cause: Error & { code?: string }): string {
  const where = `Redis at ${publicQueueUrl(url)}`;
  const creds = redisCredentials(parseQueueUrl(url));
  if (/WRONGPASS|invalid password|invalid username-password/i.test(cause.message)) {
    const from = creds.passwordFrom === 'env' ? REDIS_ENV.password : 'the URL';
    return `${where} refused the user and password (${cause.message.split('\n')[0]}): fix the password in ${from}${creds.username ? ` or the user ${creds.username}` : ''}`;
  }
  if (/NOAUTH|Authentication required/i.test(cause.message)) {
    return `${where} requires a password and none was given: set ${REDIS_ENV.password} (and ${REDIS_ENV.username} for an ACL user), or put them in the URL as redis://user:password@host:port`;
  }
  if (/certificate|self.signed|CERT_|unable to verify/i.test(`${cause.code ?? ''} ${cause.message}`)) {
    return `${where}: its TLS certificate was not accepted (${cause.message}); set ${REDIS_ENV.caFile} to the PEM file of the CA that signed it`;
  }
  return `cannot reach ${where} (${cause.message}). Start it (redis-server) or fix --queue`;
}

/** The same options, typed for BullMQ's Worker and QueueEvents (they make their own connections). */
export function bullConnection(url: string): ConnectionOptions {
  return redisOptions(url) as ConnectionOptions;
}

export function redisClient(url: string): Redis {
  const client = new Redis(redisOptions(url));
  // Connection errors reach users through RedisWatch and failing commands; without a listener
  // ioredis would also print each reconnect attempt as an "Unhandled error event".
  client.on('error', () => {});
  return client;
}

/** Refused credentials or certificates do not heal by waiting; an unreachable server may. */
function isUnreachable(cause: Error & { code?: string }): boolean {
  return !/WRONGPASS|invalid password|invalid username-password|NOAUTH|Authentication required|certificate|self.signed|CERT_|unable to verify/i.test(
    `${cause.code ?? ''} ${cause.message}`,
  );
}

export interface ConnectOptions {
  timeoutMs?: number;
  warn?: (message: string) => void;
  /**
   * How long an unreachable Redis is waited for (default 0: fail at once). A run that has
   * connected before passes its grace period, so a restart between two batches does not fail it.
   */
  graceMs?: number;
  /** Lines for "went away; waiting" and "is back" while waiting out the grace. */
  report?: (message: string) => void;
}

/**
 * Connects and pings within `timeoutMs`, or throws an error naming the URL and the cause; warns
 * (via `warn`) when Redis may evict BullMQ's keys. With `graceMs`, an unreachable Redis is tried
 * again every half second until then.
 */
export async function connectQueue(url: string, options: ConnectOptions = {}): Promise<Redis> {
  checkQueueUrl(url);
  const grace = options.graceMs ?? 0;
  const started = Date.now();
  for (let tries = 0; ; tries++) {
    try {
      const client = await probeQueue(url, options);
      if (tries)
        options.report?.(
          `Redis at ${publicQueueUrl(url)} is back after ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      return client;
    } catch (err) {
      const cause = (err as { cause?: Error }).cause ?? (err as Error);
      if (!isUnreachable(cause)) throw err;
      if (Date.now() - started >= grace) {
        if (!grace) throw err;
        throw new QueueUnavailableError(
          `Redis at ${publicQueueUrl(url)} has been unreachable for ${Math.round(grace / 1000)} s: ${(err as Error).message}`,
          { cause },
        );
      }
      if (!tries)
        options.report?.(
          `Redis at ${publicQueueUrl(url)} is unreachable (${cause.message}); waiting up to ${Math.round(grace / 1000)} s for it`,
        );
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(0, grace - (Date.now() - started)))));
    }
  }
}

/** One fail-fast attempt: connect, ping, check the eviction policy. */
async function probeQueue(url: string, options: ConnectOptions): Promise<Redis> {
  const probe = new Redis({
    ...redisOptions(url),
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: options.timeoutMs ?? 5_000,
    lazyConnect: true,
  });
  let cause: Error | undefined;
  probe.on('error', (err) => (cause ??= err)); // reported below, once
  try {
    await probe.connect();
    await probe.ping();
    const policy = ((await probe.config('GET', 'maxmemory-policy').catch(() => [])) as string[])[1];
    if (policy && policy !== 'noeviction')
      options.warn?.(
        `Redis at ${publicQueueUrl(url)} has maxmemory-policy ${policy}; set it to noeviction or queued jobs may vanish`,
      );
  } catch (err) {
    const why = cause ?? (err as Error);
    throw new QueueUnavailableError(connectAdvice(url, why), { cause: why });
  } finally {
    probe.disconnect();
  }
  return redisClient(url);
}

/** Short-lived work on Redis (status, schedules, the run index): connect, work, disconnect. */
export async function withRedis<T>(url: string, work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = await connectQueue(url);
  try {
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

/** The same with BullMQ queues on that connection, closed before it is. */
export function withQueues<T, Data = unknown>(
  url: string,
  names: string[],
  work: (queues: Array<Queue<Data>>) => Promise<T>,
): Promise<T> {
  return withRedis(url, async (connection) => {
    const queues = names.map((name) => new Queue<Data>(name, { connection, prefix: PREFIX }));
    try {
      return await work(queues);
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
  });
}

export interface RedisWatchOptions {
  url: string;
  /** Called on each change: "went away" and "is back". */
  report: (message: string) => void;
  /** How long Redis may stay away before `lost` fires (default 60 s). */
  graceMs?: number;
  /** How often the connection is pinged, so that a dead link is noticed while it is idle (default 5 s). */
  heartbeatMs?: number;
}

/**
 * Watches a connection: reports when Redis goes away and when it is back, and rejects `lost` when
 * it stays away longer than the grace period (the caller stops cleanly; the run can be resumed).
 */
export class RedisWatch {
  readonly lost: Promise<never>;
  private downSince: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private fail!: (err: Error) => void;
  private readonly detach: () => void;

  constructor(
    connection: Redis,
    private readonly options: RedisWatchOptions,
  ) {
    this.lost = new Promise<never>((_, reject) => (this.fail = reject));
    this.lost.catch(() => {}); // observed by whoever races it
    const onDown = (err?: Error) => this.down(err);
    const onUp = () => this.up();
    connection.on('error', onDown);
    connection.on('close', onDown);
    connection.on('ready', onUp);
    const heartbeat = setInterval(() => {
      if (connection.status === 'ready') connection.ping().catch(() => {}); // a failure is reported by the events above
    }, options.heartbeatMs ?? 5_000);
    heartbeat.unref();
    this.detach = () => {
      clearInterval(heartbeat);
      connection.off('error', onDown);
      connection.off('close', onDown);
      connection.off('ready', onUp);
    };
  }

  private down(err?: Error): void {
    if (this.downSince !== null) return;
    this.downSince = Date.now();
    const grace = this.options.graceMs ?? QUEUE_GRACE_MS;
    const wait = Number.isFinite(grace) ? `waiting up to ${Math.round(grace / 1000)} s for it` : 'reconnecting';
    this.options.report(
      `Redis at ${publicQueueUrl(this.options.url)} went away${err?.message ? ` (${err.message})` : ''}; ${wait}`,
    );
    if (!Number.isFinite(grace)) return;
    this.timer = setTimeout(() => {
      this.fail(
        new QueueUnavailableError(
          `Redis at ${publicQueueUrl(this.options.url)} has been unreachable for ${Math.round(grace / 1000)} s`,
        ),
      );
    }, grace);
  }

  private up(): void {
    if (this.downSince === null) return;
    clearTimeout(this.timer);
    this.options.report(
      `Redis at ${publicQueueUrl(this.options.url)} is back after ${((Date.now() - this.downSince) / 1000).toFixed(1)} s`,
    );
    this.downSince = null;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.detach();
  }
}
