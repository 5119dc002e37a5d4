// Watching Redis from a test without a connection per look. withRedis() per poll (a probe
// connection and a client, each with its handshake) every 50 ms was the largest CPU cost of the
// nightly tests' own process: about 300 connections in tests/nightly-missed.test.ts. One client
// per file, read every 200 ms.
import { Redis } from 'ioredis';
import { redisOptions } from '../../orchestrator/queue/connection.ts';
import { waitFor } from './bot-process.ts';

/** A client for a test's reads; a command fails (a poll says "not yet") while Redis is away instead of waiting. */
export function redisReader(url: string): Redis {
  const client = new Redis({ ...redisOptions(url), maxRetriesPerRequest: 1 });
  client.on('error', () => {}); // reconnects quietly; a read during an outage throws to the poll
  return client;
}

/** waitFor (tests/helpers/bot-process.ts) at a Redis reader's pace: every 200 ms. */
export const pollFor = (
  probe: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
  everyMs = 200,
): Promise<void> => waitFor(probe, what, timeoutMs, everyMs);
