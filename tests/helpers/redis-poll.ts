// Watching Redis from a test without a connection per look. withRedis() per poll (a probe
// connection and a client, each with its handshake) every 50 ms was the largest CPU cost of the
// nightly tests' own process: about 300 connections in tests/nightly-missed.test.ts. One client
// per file, read every 200 ms.
import { Redis } from 'ioredis';
import { redisOptions } from '../../orchestrator/queue/connection.ts';

/** A client for a test's reads; a command fails (a poll says "not yet") while Redis is away instead of waiting. */
export function redisReader(url: string): Redis {
  const client = new Redis({ ...redisOptions(url), maxRetriesPerRequest: 1 });
  client.on('error', () => {}); // reconnects quietly; a read during an outage throws to the poll
  return client;
}

/** Polls `probe` every `everyMs` until it returns true (a throw counts as "not yet"); fails after `timeoutMs`. */
export async function pollFor(
  probe: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
  everyMs = 200,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if (await probe()) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what} did not come up`);
}
