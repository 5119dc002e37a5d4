// A schedule's alert hooks (`schedule --on-failure <command>`, `--webhook <url>`): fired by the
// worker that saw a night end badly — failed for good (its last attempt, never a retried one),
// missed, killed, or finished with an agent's S below its band (reports/night-regression.ts) — with
// a JSON summary on the command's stdin and as the webhook's POST body. A hook that fails or hangs
// is reported and stopped after `timeoutMs`; it never fails the night. The hooks travel with the
// schedule in Redis (the job scheduler's template data), so a webhook URL's token sits there too
// (docs/queue.md, "Alerts").
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { type NightAgainstBand, nightAgainstBand } from '../../reports/night-regression.ts';
import type { Queue } from 'bullmq';
import type { NightHooks, TourneyJobData } from '../queue/jobs.ts';
import type { NightRecord } from '../queue/nights.ts';
import { readIndexFile, readIndexRedis } from '../run/index-read.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

export type { NightHooks };

export type AlertEvent = 'failed' | 'missed' | 'killed' | 'regressed';

/** What a hook receives (stdin, POST body). */
export interface NightAlert {
  event: AlertEvent;
  schedule: string;
  firedAt: string;
  at: string;
  runDir?: string;
  reason?: string;
  attempt?: number;
  attempts?: number;
  worker?: string;
  /** For a regressed night: each agent's S against its band, and who fell below it. */
  regression?: NightAgainstBand;
}

export const ALERT_DEFAULTS = {
  /** A hook still running (or a webhook not answering) after this long is stopped and reported. */
  timeoutMs: 30_000,
  /** Output of a failing command kept for the report. */
  outputChars: 400,
};

export interface AlertOptions {
  report: (message: string) => void;
  timeoutMs?: number;
  /** The night finished: its place against its band (an alert only when an agent fell below it). */
  regression?: NightAgainstBand;
}

/** The alert a night's record calls for, or none (a started night, or a finished one that did not regress). */
export function alertOf(record: NightRecord, regression?: NightAgainstBand): NightAlert | undefined {
  const event: AlertEvent | undefined =
    record.state === 'failed' || record.state === 'missed' || record.state === 'killed'
      ? record.state
      : record.state === 'finished' && regression?.regressed.length
        ? 'regressed'
        : undefined;
  if (!event) return undefined;
  const { state: _, ...rest } = record;
  return { event, ...rest, ...(event === 'regressed' ? { regression } : {}) };
}

/**
 * Fires a schedule's hooks for a night that ended badly (see alertOf); the one function every end
 * calls: the worker's last failed attempt, a missed firing, a regressed night. Never throws.
 */
export async function fireNightAlert(
  record: NightRecord,
  hooks: NightHooks | undefined,
  options: AlertOptions,
): Promise<void> {
  const alert = alertOf(record, options.regression);
  if (!alert || !hooks || (!hooks.onFailure && !hooks.webhook)) return;
  const body = JSON.stringify(alert);
  const timeoutMs = options.timeoutMs ?? ALERT_DEFAULTS.timeoutMs;
  const what = `alert (${alert.event}) of schedule "${alert.schedule}" for ${alert.firedAt}`;
  await Promise.all([
    hooks.onFailure &&
      runAlertCommand(hooks.onFailure, body, alert.event, timeoutMs).then(
        () => options.report(`${what}: --on-failure command ran`),
        (err: Error) => options.report(`${what}: --on-failure command ${err.message}`),
      ),
    hooks.webhook &&
      postWebhook(hooks.webhook, body, timeoutMs).then(
        () => options.report(`${what}: webhook ${webhookOrigin(hooks.webhook!)} answered`),
        (err: Error) => options.report(`${what}: webhook ${webhookOrigin(hooks.webhook!)} ${err.message}`),
      ),
  ]);
}

/** Runs `sh -c command` with the alert on stdin, in its own process group (a hang is killed whole). */
function runAlertCommand(command: string, body: string, event: AlertEvent, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, CATARENA_ALERT: event },
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-ALERT_DEFAULTS.outputChars);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.stdin.on('error', () => {}); // a command that does not read its stdin
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`did not end within ${timeoutMs / 1000} s and was stopped (the night is not affected)`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`could not start: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `failed (${signal ? `signal ${signal}` : `exit ${code}`}; the night is not affected)${output.trim() ? `: ${output.trim()}` : ''}`,
          ),
        );
    });
    child.stdin.end(body);
  });
}

async function postWebhook(url: string, body: string, timeoutMs: number): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'catarena-alert' },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    throw new Error(
      e.name === 'TimeoutError' ? `did not answer within ${timeoutMs / 1000} s` : `unreachable: ${e.message}`,
    );
  }
  await response.body?.cancel();
  if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
}

/** A webhook URL as reports show it: its origin only (the path or query may hold a token). */
export const webhookOrigin = (url: string) => {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '(unparsable URL)';
  }
};

/** Refuses hooks that cannot work, at registration (not at 2 a.m.). */
export function checkHooks(hooks: NightHooks): void {
  if (hooks.onFailure !== undefined && !hooks.onFailure.trim())
    throw new Error('--on-failure needs a command, e.g. --on-failure "mail -s catarena ops@example.org"');
  if (hooks.webhook === undefined) return;
  let url: URL;
  try {
    url = new URL(hooks.webhook);
  } catch {
    throw new Error(`--webhook ${webhookOrigin(hooks.webhook)}: not a URL; give http(s)://host/path`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`--webhook: ${url.protocol} is not http: or https:`);
}

/**
 * A finished night against its band: the schedule's runs from the queue's run index (every
 * machine's nights), else from the index file beside the run directory.
 */
export async function regressionOfNight(
  redis: Redis | undefined,
  schedule: string,
  runDir: string,
): Promise<NightAgainstBand | null> {
  const fromRedis = redis ? await readIndexRedis(redis).catch(() => []) : [];
  const entries = fromRedis.some((e) => e.runDir === runDir)
    ? fromRedis
    : await readIndexFile(path.join(path.dirname(runDir), RUN_FILES.index));
  const series = entries.filter((e) => e.schedule === schedule);
  const last = series.find((e) => e.runDir === runDir);
  return last ? nightAgainstBand(series, {}, last) : null;
}

/** Hooks as `schedule --list` shows them: the command, and a webhook by its origin only. */
export function describeHooks(hooks: NightHooks | undefined): string | undefined {
  const parts = [
    ...(hooks?.onFailure ? [`on-failure ${JSON.stringify(hooks.onFailure)}`] : []),
    ...(hooks?.webhook ? [`webhook ${webhookOrigin(hooks.webhook)}`] : []),
  ];
  return parts.length ? parts.join(', ') : undefined;
}

/** A finished night: its alert fires when an agent's S fell below its band. Never throws. */
export async function alertIfRegressed(
  record: NightRecord & { runDir: string },
  hooks: NightHooks | undefined,
  url: string,
  report: (message: string) => void,
): Promise<void> {
  if (!hooks) return;
  const { withRedis } = await import('../queue/connection.ts');
  const regression = await withRedis(url, (redis) => regressionOfNight(redis, record.schedule, record.runDir)).catch(
    () => regressionOfNight(undefined, record.schedule, record.runDir).catch(() => null),
  );
  if (regression) await fireNightAlert(record, hooks, { report, regression });
}

/**
 * A schedule's hooks as registered (its job scheduler's data), for an end seen outside its job: a
 * missed firing. Then: `await fireNightAlert(missedRecord, await scheduleHooks(queue, name), { report })`.
 */
export async function scheduleHooks(queue: Queue<TourneyJobData>, name: string): Promise<NightHooks | undefined> {
  return (await queue.getJobScheduler(name))?.template?.data?.alerts;
}
