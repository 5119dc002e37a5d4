// `catarena worker`: takes match jobs off the queue and plays them with this machine's sandbox,
// bots kept warm across jobs; optionally also runs scheduled tourneys (whose matches go back onto
// the queue). A bot's failure is a result; anything else that throws (an artifact that cannot be
// fetched, a sandbox error) fails the attempt, and BullMQ retries it. A worker killed mid-game
// stops renewing its job's lock, so the job is re-run by another worker after `lockDurationMs`.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { createSandbox } from '../../sandbox/index.ts';
import type { DockerSandboxOptions } from '../../sandbox/docker.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import { CpuSlots } from '../concurrency/cpu-slots.ts';
import { AdaptiveSlots } from '../concurrency/adaptive-slots.ts';
import { newController, playSpec } from '../executor/local.ts';
import { WarmBots } from '../executor/warm-bots.ts';
import { ArtifactStore } from '../queue/artifacts.ts';
import { ARTIFACT_CACHE_DEFAULTS, evictArtifacts } from '../queue/artifact-cache.ts';
import { megabytes } from '../run/disk-usage.ts';
import { bullConnection, connectQueue, MATCH_QUEUE, PREFIX, RedisWatch, TOURNEY_QUEUE } from '../queue/connection.ts';
import type { MatchJobData, MatchJobResult, TourneyJobData } from '../queue/jobs.ts';
import { announceFailedNight, firedAt, nightEndedHere, nightFailedForGood, runScheduledTourney } from './nightly.ts';
import { alertIfRegressed } from './night-alerts.ts';
import { startDevelopService } from './develop-service.ts';
import { catchUp } from './missed-firings.ts';
import { startHousekeeping } from './housekeeping.ts';

export interface QueueWorkerOptions {
  url: string;
  /**
   * Bots thinking at once on this machine (games in flight: as many, or one more with auto), or
   * auto: adapted to the measured throughput as in a tourney (orchestrator/concurrency/concurrency-controller.ts).
   */
  concurrency: number | 'auto';
  /** process: isolated (bubblewrap), required: queued bots may be anyone's; docker; unsafe: plain processes. */
  sandbox: 'process' | 'docker' | 'unsafe';
  docker?: DockerSandboxOptions;
  /** Artifacts, bot logs and scheduled runs' directories live here. */
  workDir: string;
  /** Idle bots kept warm (default 8 × concurrency; with auto, 8 × cores). */
  maxBots?: number;
  /** Shown in `catarena queue status` and stored on every job it plays (default host:pid). */
  name?: string;
  /** Also run scheduled tourneys (default true). */
  tourneys?: boolean;
  /** Parent folder of scheduled runs' directories (default: the config's `out`). */
  runsDir?: string;
  /** How long a job's lock lasts without renewal before it counts as stalled (default 30 s). */
  lockDurationMs?: number;
  /** How long a scheduled night waits for an unreachable Redis before it fails (and is retried); default 60 s. */
  queueGraceMs?: number;
  /** Developments at once (--queue tourneys develop on workers that can run the agent); 0: develop nothing (default 1). */
  develop?: number;
  /** How often to look for schedules Redis lost and for nights that moved away (default 15 s; housekeeping.ts). */
  housekeepingMs?: number;
  /** Delete cached artifacts no job used for this many days (default 14; 0: keep them all). */
  artifactMaxAgeDays?: number;
  report?: (message: string) => void;
}

export interface RunningWorker {
  name: string;
  /** Stop taking jobs, finish those in flight, stop bots. */
  drain(): Promise<void>;
  /** Stop without waiting for games in flight (they stall and are re-run elsewhere). */
  kill(): Promise<void>;
  readonly played: number;
  /** Strategies developed so far. */
  readonly developed: number;
  /** Bots started so far. */
  botsStarted(): Promise<number>;
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<RunningWorker> {
  const report = options.report ?? (() => {});
  const name = options.name ?? `${os.hostname()}:${process.pid}`;
  const connection: Redis = await connectQueue(options.url, { warn: report });
  const watch = new RedisWatch(connection, { url: options.url, report, graceMs: Number.POSITIVE_INFINITY });
  const artifactDir = path.join(options.workDir, 'artifacts');
  await fs.mkdir(artifactDir, { recursive: true });
  const sandbox = createSandbox(options.sandbox, { docker: options.docker, handleSignals: false });
  const strays = sandbox.reapStrays(artifactDir);
  if (strays) report(`stopped ${strays} bot process(es) left running by an earlier worker on ${options.workDir}`);
  const artifacts = new ArtifactStore(connection);
  const sweep = sweepArtifacts(artifactDir, options.artifactMaxAgeDays ?? ARTIFACT_CACHE_DEFAULTS.maxAgeDays, report);
  const load: MatchLoad = { active: 0, played: 0 };
  const { bots, slots, adaptive, games } = botCapacity(options, sandbox, load);
  const lockDuration = options.lockDurationMs ?? 30_000;
  // A drain stops scheduled tourneys too: they wait for games that a draining worker won't play.
  const draining = new AbortController();
  const common = {
    connection: bullConnection(options.url),
    prefix: PREFIX,
    name,
    lockDuration,
    stalledInterval: Math.max(1_000, lockDuration / 2),
  };
  load.worker = startMatchWorker(common, matchPlayer({ artifacts, artifactDir, bots, slots }, load), games, report);
  const workers: Worker[] = [load.worker];
  if (options.tourneys ?? true) workers.push(startTourneyWorker(common, options, name, report, draining.signal));
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const developing =
    (options.develop ?? 1) > 0
      ? await startDevelopService({
          connection,
          common,
          name,
          workDir: options.workDir,
          artifactDir,
          sandbox,
          hosts: bots.hosts,
          concurrency: options.develop ?? 1,
          report,
        })
      : undefined;
  adaptive?.start();
  const housekeeping = startHousekeeping({
    redis: connection,
    url: options.url,
    workDir: options.workDir,
    worker: name,
    report,
    everyMs: options.housekeepingMs,
  });

  const shutdown = async (force: boolean) => {
    draining.abort();
    housekeeping.stop();
    if (sweep) clearInterval(sweep);
    await Promise.allSettled([...workers.map((w) => w.close(force)), developing?.close(force)]);
    adaptive?.stop();
    watch.stop();
    await bots.close();
    await sandbox.close();
    connection.disconnect();
  };
  return {
    name,
    drain: () => shutdown(false),
    kill: () => shutdown(true),
    get played() {
      return load.played;
    },
    get developed() {
      return developing?.developed ?? 0;
    },
    botsStarted: () => bots.started(), // fleets keep counting after close
  };
}

/** BullMQ options the worker's queues share (connection, prefix, name, locks). */
type CommonWorkerOptions = Omit<WorkerOptions, 'concurrency'>;

/** The game side's counters, and its BullMQ worker once started (the adaptive level resizes it). */
interface MatchLoad {
  active: number;
  played: number;
  worker?: Worker<MatchJobData, MatchJobResult>;
}

// With auto, BullMQ takes one game more than there are slots, so a bot can start or the game
// server work while the slots' bots think. A tourney keeps more in flight (2 × slots + 1, for
// tables that share bots); a worker leaves the rest of the queue to the other workers.
const gamesFor = (level: number) => level + 1;

/** Warm bots and the slots they think in; with auto, a level adapted to the measured throughput. */
function botCapacity(options: QueueWorkerOptions, sandbox: Sandbox, load: MatchLoad) {
  const controller = options.concurrency === 'auto' ? newController() : undefined;
  const fixed = options.concurrency === 'auto' ? 0 : options.concurrency;
  const bots = new WarmBots({
    sandbox,
    logDir: path.join(options.workDir, 'bot-logs'),
    maxBots: options.maxBots ?? 8 * (controller?.ceiling ?? fixed),
  });
  const slots = new CpuSlots(controller?.level ?? fixed);
  const adaptive = controller
    ? new AdaptiveSlots(slots, controller, {
        botCpuMs: (called) => bots.cpuTimeMs(called), // only the bots called since the last window are read again
        // Short of games (an idle queue, a run's last games, other workers taking the jobs): not a slow level.
        underfed: () => load.active < gamesFor(slots.capacity),
        onWindow: ({ level, next }) => {
          if (next !== level && load.worker) load.worker.concurrency = gamesFor(next);
        },
      })
    : undefined;
  return { bots, slots, adaptive, games: controller ? gamesFor(controller.level) : fixed };
}

/** Plays one queued game: its strategies' code fetched, their bots taken warm (or started), then released. */
function matchPlayer(
  {
    artifacts,
    artifactDir,
    bots,
    slots,
  }: { artifacts: ArtifactStore; artifactDir: string; bots: WarmBots; slots: CpuSlots },
  load: MatchLoad,
) {
  return async (job: Job<MatchJobData, MatchJobResult>): Promise<MatchJobResult> => {
    const { spec, strategies, startTimeoutMs } = job.data;
    load.active++;
    try {
      const code: Record<string, { dir: string } | { forfeit: string }> = {};
      for (const [id, c] of Object.entries(strategies))
        code[id] = 'hash' in c ? { dir: await artifacts.fetch(c.hash, artifactDir) } : { forfeit: c.forfeit };
      const { fleet, keys } = await bots.acquire(job.data.run, spec.game, spec.variant, code, startTimeoutMs);
      try {
        const replay = await playSpec(spec, { fleet, hosts: bots.hosts, slots, fleetId: (id) => keys[id]! });
        load.played++;
        return replay;
      } finally {
        await bots.release(spec.game, spec.variant, keys);
      }
    } finally {
      load.active--;
    }
  };
}

function startMatchWorker(
  common: CommonWorkerOptions,
  playMatch: (job: Job<MatchJobData, MatchJobResult>) => Promise<MatchJobResult>,
  concurrency: number,
  report: (message: string) => void,
): Worker<MatchJobData, MatchJobResult> {
  const matches = new Worker<MatchJobData, MatchJobResult>(MATCH_QUEUE, playMatch, { ...common, concurrency });
  matches.on('error', () => {}); // connection trouble is reported once by the watch
  matches.on(
    'failed',
    (job, err) => job && report(`game ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`),
  );
  return matches;
}

/** Runs scheduled tourneys one at a time; a night's end (failed for good, or regressed) fires its alerts. */
function startTourneyWorker(
  common: CommonWorkerOptions,
  options: QueueWorkerOptions,
  name: string,
  report: (message: string) => void,
  signal: AbortSignal,
): Worker {
  const tourneys = new Worker<TourneyJobData>(
    TOURNEY_QUEUE,
    async (job, token) => {
      // A night this worker ended for good whose job came back (its lock had lapsed): not run again.
      if (nightEndedHere(job)) throw new UnrecoverableError('this night already failed for good on this worker');
      // Firings that passed while no worker took the job: recorded, and run per the catch-up policy.
      return (await catchUp(job, { url: options.url, worker: name, report })).runHere
        ? runScheduledTourney(job, token, {
            url: options.url,
            runsDir: options.runsDir,
            report,
            signal,
            queueGraceMs: options.queueGraceMs,
            worker: name,
          })
        : { missed: true };
    },
    { ...common, concurrency: 1 },
  );
  tourneys.on('error', () => {});
  tourneys.on('failed', (job, err) => {
    // A failure BullMQ retries was reported by runScheduledTourney, and so was a last attempt that
    // failed in the tourney (nightEndedHere); this is the end of a night that failed before it.
    const failed = job && !nightEndedHere(job) && nightFailedForGood(job, err);
    if (failed) announceFailedNight(job, err, { ...failed, worker: name }, { url: options.url, report });
  });
  // A night that finished with an agent's S below its band fires the schedule's alert too.
  tourneys.on('completed', (job, result: { runDir?: string } | undefined) => {
    if (!job.data.alerts || !result?.runDir) return;
    const record = { schedule: job.data.name, firedAt: firedAt(job).toISOString(), state: 'finished' as const };
    void alertIfRegressed(
      { ...record, at: new Date().toISOString(), runDir: result.runDir, worker: name },
      job.data.alerts,
      options.url,
      report,
    );
  });
  return tourneys;
}

/** Sweeps the artifact cache now and every hour (none with 0 days); returns the timer. */
function sweepArtifacts(
  dir: string,
  days: number,
  report: (message: string) => void,
): ReturnType<typeof setInterval> | undefined {
  if (days <= 0) return undefined;
  const once = () =>
    void evictArtifacts(dir, { maxAgeMs: days * 86_400_000 }).then(
      ({ removed, bytes }) =>
        removed && report(`artifact cache: deleted ${removed} folder(s) unused for ${days} days (${megabytes(bytes)})`),
      (err: Error) => report(`artifact cache: could not sweep ${dir}: ${err.message}`),
    );
  once();
  const timer = setInterval(once, ARTIFACT_CACHE_DEFAULTS.sweepEveryMs);
  timer.unref();
  return timer;
}
