// A worker's memory of the schedules it has seen, kept outside Redis (a small file in its work
// directory, and each schedule's config beside it), so that a Redis that restarts without
// persistence and forgets them does not stop the nights silently: the worker finds Redis's epoch
// key changed (orchestrator/queue/lost-schedules.ts), names each schedule that vanished in its log
// with the command that registers it again, and notes it in Redis for `schedule --list` and
// `queue status`.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type JobSchedulerJson, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { PREFIX, publicQueueUrl, TOURNEY_QUEUE } from '../queue/connection.ts';
import { DEFAULT_CATCH_UP, TOURNEY_JOB_OPTIONS, type TourneyJobData } from '../queue/jobs.ts';
import { EPOCH_KEY, describeLost, type LostSchedule, noteLostSchedule } from '../queue/lost-schedules.ts';
import { writeFileAtomic } from '../../util/fs.ts';

interface Known {
  cron?: string;
  tz?: string;
  /** The arguments that register it again, after --queue. */
  args: string[];
}

interface Memory {
  url: string;
  epoch?: string;
  schedules: Record<string, Known>;
}

/** The memory file of a queue: one per Redis a worker served from this work directory. */
const memoryFile = (workDir: string, url: string) =>
  path.join(workDir, `schedules-${createHash('sha256').update(publicQueueUrl(url)).digest('hex').slice(0, 12)}.json`);
const configFile = (workDir: string, name: string) => path.join(workDir, 'schedules', `${name}.config.json`);

/**
 * Compares what Redis has with what this worker saw before; reports and notes the schedules lost
 * with Redis's data, then remembers what is there now. Returns the names of those it found lost.
 */
export async function checkLostSchedules(options: {
  redis: Redis;
  url: string;
  workDir: string;
  worker: string;
  report: (message: string) => void;
}): Promise<string[]> {
  const { redis, url, workDir } = options;
  const file = memoryFile(workDir, url);
  const memory = JSON.parse(await fs.readFile(file, 'utf8').catch(() => 'null')) as Memory | null;
  await redis.set(EPOCH_KEY, randomBytes(8).toString('hex'), 'NX');
  const epoch = (await redis.get(EPOCH_KEY)) ?? undefined;
  const queue = new Queue<TourneyJobData>(TOURNEY_QUEUE, { connection: redis, prefix: PREFIX });
  const current = await queue.getJobSchedulers().finally(() => queue.close());
  const lost: string[] = [];
  if (memory?.epoch && memory.epoch !== epoch)
    for (const [name, known] of Object.entries(memory.schedules)) {
      if (current.some((s) => s.key === name)) continue;
      lost.push(name);
      const note: LostSchedule = {
        name,
        ...(known.cron ? { cron: known.cron } : {}),
        ...(known.tz ? { tz: known.tz } : {}),
        noticedAt: new Date().toISOString(),
        noticedBy: options.worker,
        restore: `catarena schedule --queue ${publicQueueUrl(url)} ${known.args.map(quote).join(' ')}`,
      };
      await noteLostSchedule(redis, note);
      options.report(describeLost(note));
    }
  const schedules: Record<string, Known> = {};
  // Names as `schedule` allows them: one a config file can be named after (a forged key is skipped).
  for (const s of current) if (/^[\w.-]+$/.test(s.key)) schedules[s.key] = await remember(workDir, s);
  await fs.mkdir(workDir, { recursive: true });
  await writeFileAtomic(
    file,
    `${JSON.stringify({ url: publicQueueUrl(url), epoch, schedules } satisfies Memory, null, 2)}\n`,
  );
  return lost;
}

/** Saves a schedule's config (mode 0600) and returns how to register it again. */
async function remember(workDir: string, s: JobSchedulerJson<TourneyJobData>): Promise<Known> {
  const data = s.template?.data;
  const opts = s.template?.opts;
  const args = ['--name', s.key];
  if (s.pattern) args.push('--cron', s.pattern);
  if (s.tz) args.push('--tz', s.tz);
  if (data?.config) {
    const file = configFile(workDir, s.key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(data.config, null, 2)}\n`, { mode: 0o600 });
    args.push('--config', file);
  }
  if (data?.catchUp && data.catchUp !== DEFAULT_CATCH_UP) args.push('--catch-up', data.catchUp);
  if (opts?.attempts !== undefined && opts.attempts !== TOURNEY_JOB_OPTIONS.attempts)
    args.push('--retries', String(opts.attempts - 1));
  const delay = typeof opts?.backoff === 'object' ? opts.backoff.delay : undefined;
  const defaultDelay = (TOURNEY_JOB_OPTIONS.backoff as { delay: number }).delay;
  if (delay !== undefined && delay !== defaultDelay) args.push('--retry-delay', String(delay));
  return { ...(s.pattern ? { cron: s.pattern } : {}), ...(s.tz ? { tz: s.tz } : {}), args };
}

const quote = (arg: string) => (/^[\w./:@=+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
