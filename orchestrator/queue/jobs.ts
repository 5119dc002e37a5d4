// What travels through the queue: a match job (the spec plus where each seat's code is) and a
// tourney job (a scheduled run's config). Job ids are deterministic: a run's match job id is the
// run id and the spec hash, so adding it twice, retrying it, or a worker finishing it after it
// was re-run elsewhere never yields two results for one game.
import type { JobsOptions } from 'bullmq';
import { matchId, type MatchSpec, type Replay } from '../../records/match.ts';
import type { TourneyConfigInput } from '../config/tourney-config.ts';

/** A seat's code: a content hash in the artifact store, or why the strategy forfeits unplayed. */
export type StrategyCode = { hash: string } | { forfeit: string };

export interface MatchJobData {
  /** The run this game belongs to (the run directory's name). */
  run: string;
  spec: MatchSpec;
  /** Code per strategy id seated in the spec. */
  strategies: Record<string, StrategyCode>;
  /** How long a bot may take to become healthy. */
  startTimeoutMs: number;
}

export type MatchJobResult = Replay;

/**
 * What a worker does with the firings that passed while no worker took a schedule's job
 * (orchestrator/worker/missed-firings.ts): run none, only the latest, or each; all are recorded.
 */
export type CatchUp = 'none' | 'latest' | 'all';
export const CATCH_UP_POLICIES: readonly CatchUp[] = ['none', 'latest', 'all'];
/** A fleet that comes back runs one fresh night, not a backlog of stale repeats; the rest are recorded as missed. */
export const DEFAULT_CATCH_UP: CatchUp = 'latest';

export interface TourneyJobData {
  /** The scheduler's name ("nightly"), used in run directory names and the run index. */
  name: string;
  config: TourneyConfigInput;
  /** The schedule's catch-up policy (default DEFAULT_CATCH_UP). */
  catchUp?: CatchUp;
  /** A caught-up night's own firing time (ISO): set on the jobs a worker adds for missed firings. */
  firedAt?: string;
  /** The schedule's alert hooks (orchestrator/worker/night-alerts.ts). */
  alerts?: NightHooks;
}

/** A schedule's alert hooks: stored in Redis with the schedule (a webhook URL's token too). */
export interface NightHooks {
  /** A shell command (sh -c) run on the worker that saw the night end; the alert's JSON on its stdin. */
  onFailure?: string;
  /** An http(s) URL the alert's JSON is POSTed to. */
  webhook?: string;
}

/** BullMQ job ids must not be integers or contain ':'. */
export const runKey = (run: string) => run.replace(/[^\w.-]+/g, '_');
export const matchJobId = (run: string, spec: MatchSpec) => `${runKey(run)}.${matchId(spec)}`;

/**
 * Infrastructure failures (an artifact not found, a sandbox that errors) are retried with
 * backoff. Finished games (with their replays) are kept a week, at most 20,000 of them, so a
 * coordinator that was down can still collect them; one dropped before that is played again.
 */
export const MATCH_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 20_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/**
 * A scheduled night that fails on an infrastructure error (Redis away longer than the grace, a
 * game failing on every worker) is tried again, resuming its run directory: 2 retries, 60 s and
 * then 120 s later (`schedule --retries`, `--retry-delay`). Other failures are not retried
 * (orchestrator/worker/nightly.ts marks them unrecoverable).
 */
export const TOURNEY_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 60_000 },
  removeOnComplete: { age: 90 * 24 * 3600 },
  removeOnFail: { age: 90 * 24 * 3600 },
};
