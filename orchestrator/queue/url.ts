// The queue's URL and the secrets beside it. The password may be in the URL
// (redis://user:password@host) or in CATARENA_REDIS_PASSWORD; either way it is only ever handed to
// the Redis client: every message, status line, and the run directory's config.json get
// `publicQueueUrl`, which drops it. Kept apart from connection.ts so that writing a run's config
// does not load ioredis.

/** Environment variables read beside the URL (the URL's own user and password win). */
export const REDIS_ENV = {
  username: 'CATARENA_REDIS_USERNAME',
  password: 'CATARENA_REDIS_PASSWORD',
  caFile: 'CATARENA_REDIS_CA_FILE',
} as const;

export class QueueUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QueueUnavailableError';
  }
}

/** Parses and checks a queue URL ("redis://host:port[/db]" or rediss://); the error never repeats a password. */
export function parseQueueUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueUnavailableError(
      `--queue ${JSON.stringify(publicQueueUrl(url))} is not a URL; expected redis://host:6379`,
    );
  }
  if (!/^rediss?:$/.test(parsed.protocol))
    throw new QueueUnavailableError(`--queue ${publicQueueUrl(url)}: expected a redis:// or rediss:// URL`);
  return parsed;
}

/**
 * The URL without its password: safe to print, log and store. Only a URL whose host the parser
 * found after its credentials keeps its user; anything else holding an "@" (a password with an
 * unencoded "/", "#" or "?", a one-slash typo "redis:/user:pw@host") loses everything between
 * the scheme and the last "@", so no password survives however the text is broken.
 */
export function publicQueueUrl(url: string): string {
  const at = url.lastIndexOf('@');
  if (at < 0) return url;
  try {
    const u = new URL(url);
    if (u.host && url.slice(at + 1).startsWith(u.host)) {
      u.password = '';
      return u.toString().replace(/\/$/, '');
    }
  } catch {}
  const scheme = /^[a-z][a-z\d+.-]*:\/{0,2}/i.exec(url)?.[0] ?? '';
  return `${scheme}***${url.slice(at)}`;
}

export interface RedisCredentials {
  username?: string;
  password?: string;
  /** Where the password came from, for error messages. */
  passwordFrom?: 'url' | 'env';
  /** PEM CA file to verify a rediss:// server with (CATARENA_REDIS_CA_FILE). */
  caFile?: string;
}

/** User, password and CA file for a URL: the URL's own, else CATARENA_REDIS_*. */
export function redisCredentials(url: URL, env: NodeJS.ProcessEnv = process.env): RedisCredentials {
  const fromUrl = (s: string) => (s ? decodeURIComponent(s) : undefined);
  const password = fromUrl(url.password) ?? (env[REDIS_ENV.password] || undefined);
  return {
    username: fromUrl(url.username) ?? (env[REDIS_ENV.username] || undefined),
    password,
    passwordFrom: password === undefined ? undefined : url.password ? 'url' : 'env',
    caFile: env[REDIS_ENV.caFile] || undefined,
  };
}
