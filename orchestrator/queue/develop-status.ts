// The development part of `catarena queue status`: per agent queue, its jobs, and which workers
// take them or not and why (a worker without the agent's key or image says what it lacks).
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { listRoutes, readCapabilities } from './develop-jobs.ts';
import { PREFIX } from './names.ts';

export interface DevelopmentQueueStatus {
  queue: string;
  agent: string;
  waiting: number;
  active: number;
  completed: number;
  failed: number;
  /** Workers that take this agent's developments. */
  takenBy: string[];
  /** Workers that do not, each with what it lacks. */
  refusedBy: Array<{ worker: string; detail: string }>;
}

export async function developmentStatus(redis: Redis): Promise<DevelopmentQueueStatus[]> {
  const [routes, capabilities] = await Promise.all([listRoutes(redis), readCapabilities(redis)]);
  const out: DevelopmentQueueStatus[] = [];
  for (const [name, route] of routes) {
    const queue = new Queue(name, { connection: redis, prefix: PREFIX });
    try {
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed');
      const row: DevelopmentQueueStatus = {
        queue: name,
        agent: route.spec,
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
        active: counts.active ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
        takenBy: [],
        refusedBy: [],
      };
      for (const [worker, found] of capabilities) {
        const c = found.get(name);
        if (c?.ok) row.takenBy.push(worker);
        else if (c) row.refusedBy.push({ worker, detail: c.detail });
      }
      out.push(row);
    } finally {
      await queue.close();
    }
  }
  for (const row of out) row.takenBy.sort();
  return out.sort((a, b) => a.agent.localeCompare(b.agent));
}

export function formatDevelopmentStatus(rows: DevelopmentQueueStatus[]): string[] {
  if (!rows.length) return [];
  const width = Math.max(22, ...rows.map((r) => r.agent.length));
  const lines = ['', `${'developments (per agent)'.padEnd(width + 2)} waiting  active  completed  failed`];
  for (const r of rows) {
    lines.push(
      `  ${r.agent.padEnd(width)} ${String(r.waiting).padStart(7)} ${String(r.active).padStart(7)} ${String(r.completed).padStart(10)} ${String(r.failed).padStart(7)}`,
    );
    lines.push(`    taken by: ${r.takenBy.length ? r.takenBy.join(', ') : 'no connected worker'}`);
    for (const w of r.refusedBy) lines.push(`    not by ${w.worker}: ${w.detail}`);
  }
  return lines;
}
