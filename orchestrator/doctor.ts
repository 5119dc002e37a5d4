// `catarena doctor` (and `tourney --check`): before a run spends anything, what every agent of
// the config needs — its spec and key, its endpoint reachable with the key accepted (one
// model-list request, through the egress proxy for CLI agents), Docker and its image — and what
// the run needs itself (the Docker sandbox's image, the queue's Redis), as a table of what is
// ready and what is missing. A nightly run then fails in seconds instead of after a develop phase.
import { createAgent, type CreateAgentOptions } from '../agents/registry.ts';
import type { PreflightContext } from '../agents/core/types.ts';
import type { PreflightCheck } from '../agents/core/preflight.ts';
import { checkDocker, imageId } from '../docker/build-images.ts';
import { botRuntimeTag } from '../docker/image-tags.ts';
import { deriveSeed } from '../util/rng.ts';
import { sandboxVerdict } from './config/sandbox-choice.ts';
import type { TourneyConfig } from './config/tourney-config.ts';
import { connectQueue, publicQueueUrl, withRedis } from './queue/connection.ts';
import {
  agentRoute,
  developQueueName,
  listRoutes,
  readCapabilities,
  routeAgentOptions,
  type AgentRoute,
} from './queue/develop-jobs.ts';
import { runModelTable } from '../agents/core/models.ts';

export interface DoctorRow extends PreflightCheck {
  /** The agent spec the check is for, or "run" for what the whole run needs. */
  subject: string;
  /** Skipped by name (--skip-check): shown with what it found, never counted as missing. */
  skipped?: boolean;
}

export interface DoctorOptions {
  /**
   * Check this machine as a queue worker (`doctor --worker`): besides the config's agents, every
   * agent the queue's runs have asked for, as the worker decides whether to take its developments.
   */
  worker?: boolean;
  /**
   * Checks to skip by name (`--skip-check endpoint`): a check whose name is this or starts with it
   * ("endpoint" skips "endpoint of openai/…" and "endpoint (via the egress proxy)"), or
   * `<agent>:<check>` for one agent's only. Its row stays in the table, marked skipped.
   */
  skipChecks?: string[];
}

/**
 * Every check of the config; never throws (a failure is a row). With a queue, agents develop on
 * workers: the coordinator checks what the workers reported instead of needing the keys itself.
 */
export async function runDoctor(config: TourneyConfig, options: DoctorOptions = {}): Promise<DoctorRow[]> {
  return skipByName(await allChecks(config, options), options.skipChecks ?? []);
}

/** Whether a --skip-check name stands for a row: its check's name (or its start), or agent:check. */
function skips(name: string, row: DoctorRow): boolean {
  const n = name.trim().toLowerCase();
  const check = row.check.toLowerCase();
  const named = (c: string) => c && (check === c || check.startsWith(`${c} `));
  if (named(n)) return true;
  const cut = n.lastIndexOf(':');
  return cut > 0 && row.subject.toLowerCase() === n.slice(0, cut) && Boolean(named(n.slice(cut + 1)));
}

/** Rows a --skip-check names become skipped (ok, with what they found); a name that matches none is a row saying so. */
export function skipByName(rows: DoctorRow[], names: string[]): DoctorRow[] {
  const out = rows.map((row) => {
    const name = names.find((n) => skips(n, row));
    return name && !row.skipped
      ? { ...row, ok: true, warn: true, skipped: true, detail: `skipped (--skip-check ${name}): ${row.detail}` }
      : row;
  });
  const unused = names.filter((n) => !rows.some((r) => skips(n, r)));
  if (unused.length)
    out.push({
      subject: 'run',
      check: 'skip-check',
      ok: false,
      detail: `--skip-check ${unused.join(', ')} names no check; the checks are: ${[...new Set(rows.map((r) => r.check))].join(', ')} (or <agent>:<check>)`,
    });
  return out;
}

async function allChecks(config: TourneyConfig, options: DoctorOptions): Promise<DoctorRow[]> {
  const rows: DoctorRow[] = [];
  const run = (check: PreflightCheck) => rows.push({ subject: 'run', ...check });
  if (config.sandbox === 'docker') {
    const docker = await checkDocker().then(
      (version) => ({ ok: true, detail: `Docker ${version}` }),
      (err: Error) => ({ ok: false, detail: err.message }),
    );
    run({ check: 'Docker', ...docker });
    const tag = config.docker.image ?? botRuntimeTag();
    const id = docker.ok ? await imageId(tag) : undefined;
    run({
      check: 'bot image',
      ok: Boolean(id),
      detail: id ? tag : `${tag} is missing: build it with "npm run images"`,
    });
  }
  if (config.queue) {
    const queue = await connectQueue(config.queue).then(
      (c) => (c.disconnect(), { ok: true, detail: `${publicQueueUrl(config.queue!)} answers` }),
      (err: Error) => ({ ok: false, detail: err.message }),
    );
    run({ check: 'queue (Redis)', ...queue });
  }
  if (config.queue && options.worker) {
    const routes = await withRedis(config.queue, listRoutes).catch(() => new Map<string, AgentRoute>());
    const checks = await Promise.all(
      [...routes.values()].map(async (route) =>
        (
          await agentChecks(route.spec, route.seed, routeAgentOptions(route), {
            games: config.games,
            sandbox: route.sandbox ?? 'process',
          })
        ).map((c) => ({ subject: `${route.spec} (queued)`, ...c })),
      ),
    );
    rows.push(...checks.flat());
  } else if (config.queue) {
    rows.push(...(await workerVerdicts(config, config.queue)));
    return rows;
  }
  const checks = await Promise.all(
    config.agents.map(async (spec) =>
      (
        await agentChecks(
          spec,
          deriveSeed(config.seed, 'agent', spec),
          { sandbox: config.sandbox, endpoint: config.agentEndpoints[spec], modelTable: runModelTable(config.models) },
          { games: config.games, sandbox: config.sandbox },
        )
      ).map((c) => ({ subject: spec, ...c })),
    ),
  );
  rows.push(...checks.flat());
  // Which sandbox each agent's bots will get here (a queued run's bots play on the workers').
  for (const spec of config.agents)
    rows.push({ subject: spec, check: 'sandbox', ...sandboxVerdict(config.sandbox, spec) });
  return rows;
}

/** Per agent of a queued run: which workers reported they can develop it (a warning while none does). */
async function workerVerdicts(config: TourneyConfig, url: string): Promise<DoctorRow[]> {
  const found = await withRedis(url, readCapabilities).catch(() => undefined);
  return config.agents.map((spec) => {
    const queue = developQueueName(agentRoute(config, spec));
    const verdicts = [...(found ?? [])].flatMap(([worker, queues]) =>
      queues.has(queue) ? [{ worker, ...queues.get(queue)! }] : [],
    );
    const takers = verdicts.filter((v) => v.ok).map((v) => v.worker);
    const detail = takers.length
      ? `developed on workers: ${takers.join(', ')} take it`
      : verdicts.length
        ? `no connected worker can develop it: ${verdicts.map((v) => `${v.worker}: ${v.detail}`).join('; ')}`
        : 'developed on workers; none has checked it yet (they do when a run queues it; "catarena doctor --worker --agents …" on a worker checks it there)';
    return { subject: spec, check: 'workers', ok: true, warn: !takers.length, detail };
  });
}

/** One agent's checks on this machine (also how a worker decides which agents' development jobs it takes); never throws. */
export async function agentChecks(
  spec: string,
  seed: number,
  options: CreateAgentOptions,
  context: PreflightContext,
): Promise<PreflightCheck[]> {
  let agent;
  try {
    agent = createAgent(spec, seed, options);
  } catch (err) {
    return [{ check: 'spec and key', ok: false, detail: (err as Error).message }];
  }
  const own = agent.preflight
    ? await agent.preflight(context).catch((err: Error) => [{ check: 'preflight', ok: false, detail: err.message }])
    : [];
  return [{ check: 'spec and key', ok: true, detail: `${agent.kind} (id ${agent.id})` }, ...own];
}

export const doctorReady = (rows: DoctorRow[]) => rows.every((r) => r.ok);

/** The table: subject, check, ready / MISSING, detail. */
export function formatDoctor(rows: DoctorRow[]): string {
  const width = (f: (r: DoctorRow) => string, head: string) => Math.max(head.length, ...rows.map((r) => f(r).length));
  const ws = width((r) => r.subject, 'agent');
  const wc = width((r) => r.check, 'check');
  const line = (a: string, b: string, c: string, d: string) => `${a.padEnd(ws)}  ${b.padEnd(wc)}  ${c.padEnd(7)}  ${d}`;
  const out = [
    line('agent', 'check', 'status', 'detail'),
    ...rows.map((r) =>
      line(
        r.subject,
        r.check,
        r.skipped ? 'skipped' : r.ok ? (r.warn ? 'WARNING' : 'ready') : 'MISSING',
        r.detail.replace(/\s+/g, ' ').slice(0, 240),
      ),
    ),
  ];
  const missing = rows.filter((r) => !r.ok).length;
  out.push(
    '',
    missing
      ? `${missing} of ${rows.length} checks failed: fix them before the run spends anything`
      : `all ${rows.length} checks ready`,
  );
  return out.join('\n');
}
