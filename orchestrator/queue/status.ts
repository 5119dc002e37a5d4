// `catarena queue status`: job counts per queue, the workers connected (with the games each is
// playing now), recent failures with their reasons, and the registered schedules.
import { MATCH_QUEUE, publicQueueUrl, TOURNEY_QUEUE, withQueues, withRedis } from './connection.ts';
import { developmentStatus, formatDevelopmentStatus, type DevelopmentQueueStatus } from './develop-status.ts';
import { describeNext, type Overdue, overdueOf } from './schedule-state.ts';
import { describeLost, type LostSchedule, readLostSchedules } from './lost-schedules.ts';

export interface QueueStatus {
  url: string;
  queues: Array<{ name: string; waiting: number; active: number; delayed: number; completed: number; failed: number }>;
  workers: Array<{ name: string; address: string; idleSeconds: number; active: string[] }>;
  failures: Array<{ queue: string; id: string; reason: string; attempts: number; at: string }>;
  schedules: Array<{ name: string; cron?: string; next?: string; overdue?: Overdue }>;
  /** Development queues (one per agent) and which workers take them. */
  development: DevelopmentQueueStatus[];
  /** Schedules a worker found gone with Redis's data (lost-schedules.ts). */
  lost: LostSchedule[];
}

export async function queueStatus(url: string): Promise<QueueStatus> {
  return withQueues(url, [MATCH_QUEUE, TOURNEY_QUEUE], async (queues) => {
    const status: QueueStatus = {
      url: publicQueueUrl(url),
      queues: [],
      workers: [],
      failures: [],
      schedules: [],
      development: [],
      lost: [],
    };
    const workers = new Map<string, QueueStatus['workers'][number]>();
    for (const queue of queues) {
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed');
      status.queues.push({
        name: queue.name,
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
      });
      for (const client of await queue.getWorkers()) {
        const name = /:w:(.+)$/.exec(client.rawname ?? '')?.[1] ?? client.addr ?? '?';
        const known = workers.get(name) ?? {
          name,
          address: client.addr ?? '',
          idleSeconds: Number(client.idle ?? 0),
          active: [],
        };
        known.idleSeconds = Math.min(known.idleSeconds, Number(client.idle ?? 0));
        workers.set(name, known);
      }
      for (const job of await queue.getJobs(['active'])) {
        const name = job.processedBy ?? '?';
        // A worker that died mid-game is no longer connected; its game is re-run once its lock expires.
        const worker = workers.get(name) ?? {
          name,
          address: 'not connected (its games are re-run when their locks expire)',
          idleSeconds: 0,
          active: [],
        };
        worker.active.push(`${queue.name}/${job.id}`);
        workers.set(name, worker);
      }
      for (const job of await queue.getJobs(['failed'], 0, 9)) {
        status.failures.push({
          queue: queue.name,
          id: job.id ?? '?',
          reason: job.failedReason,
          attempts: job.attemptsMade,
          at: new Date(job.finishedOn ?? job.timestamp).toISOString(),
        });
      }
    }
    status.workers = [...workers.values()].sort((a, b) => a.name.localeCompare(b.name));
    status.schedules = (await queues[1]!.getJobSchedulers()).map((s) => ({
      name: s.key,
      cron: s.pattern ?? undefined,
      next: s.next ? new Date(s.next).toISOString() : undefined,
      overdue: overdueOf(s),
    }));
    status.development = await withRedis(url, developmentStatus);
    status.lost = await withRedis(url, readLostSchedules);
    return status;
  });
}

export function formatQueueStatus(status: QueueStatus): string {
  const lines = [`queue ${status.url}`, '', 'queue      waiting  active  delayed  completed  failed'];
  for (const q of status.queues)
    lines.push(
      `${q.name.padEnd(10)} ${String(q.waiting).padStart(7)} ${String(q.active).padStart(7)} ${String(q.delayed).padStart(8)} ${String(q.completed).padStart(10)} ${String(q.failed).padStart(7)}`,
    );
  lines.push(
    '',
    status.workers.length
      ? `workers (${status.workers.length})`
      : 'workers: none connected (start one with: catarena worker --queue …)',
  );
  for (const w of status.workers)
    lines.push(
      `  ${w.name}  ${w.address}  idle ${w.idleSeconds} s  playing ${w.active.length}${w.active.length ? `: ${w.active.join(', ')}` : ''}`,
    );
  if (status.failures.length) {
    lines.push('', 'recent failures');
    for (const f of status.failures)
      lines.push(`  ${f.queue}/${f.id} after ${f.attempts} attempt(s) at ${f.at}: ${f.reason}`);
  }
  lines.push(...formatDevelopmentStatus(status.development));
  if (status.schedules.length || status.lost.length) {
    lines.push('', 'schedules');
    for (const s of status.schedules) lines.push(`  ${s.name}  "${s.cron ?? '?'}"  ${describeNext(s.next, s.overdue)}`);
    for (const l of status.lost) lines.push(`  ${describeLost(l)}`);
  }
  return lines.join('\n');
}
