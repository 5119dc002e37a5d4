// The data a tournament run writes and reads: strategy records (with their cost and validation),
// the per-round report agents read (round_report.json), and the per-track summary the final
// reports are rendered from.
import type { AnchoredStrategy } from './anchors.ts';
import { RUN_DIRS } from './run-layout.ts';
import type { JournalIntegrity, JournalSeal } from './journal-integrity.ts';
import type { FailureKind, IntegrityEvent } from './match.ts';
import type { TaskTrack } from './task-track.ts';
import type {
  AllMetrics,
  BootstrapResult,
  CrossGameRatings,
  Interval,
  Ratings,
  ScoreMatrixJSON,
  TableRatings,
  WinRate,
} from './metrics.ts';
import type { OpponentCode } from './opponent-code.ts';

export interface CostRecord {
  wallMs: number;
  /** Tool calls (LLM agents) or file operations (offline agents). */
  toolCalls: number;
  /**
   * Null where no LLM is used. `input` is the input not read from a cache; cache reads and writes
   * are counted apart (agents/core/prices.ts), so each token is counted once.
   */
  tokens: { input: number; output: number; cacheRead?: number; cacheWrite?: number } | null;
  /**
   * Dollars: what the agent itself reported where it reports it (Claude Code's total_cost_usd),
   * else estimated from the model table (agents/core/prices.ts; config `prices`); null where the
   * model has no price and the agent reported nothing.
   */
  costUsd?: number | null;
  /** What the agent itself reported (Claude Code's total_cost_usd). */
  reportedCostUsd?: number;
  /** The estimate from the tokens, kept beside a reported figure as a cross-check. */
  estimatedCostUsd?: number;
  /** Non-blank lines of code in the produced bot folder. */
  linesOfCode: number;
  /** Of wallMs, the time spent waiting on rate limits (agents/core/rate-limits.ts); absent when none. */
  rateLimitWaitMs?: number;
}

export interface PositionCheck {
  name: string;
  ok: boolean;
  latencyMs: number;
  answer?: unknown;
  problem?: string;
  /** What went wrong: a refused join, an illegal move, or a failure to answer in the protocol. */
  kind?: FailureKind | 'join_failed';
}

export interface ValidationReport {
  dir: string;
  game: string;
  variant: string;
  /** Whether the bot may play: under `strict` no problem at all, otherwise it starts and plays a legal move somewhere. */
  ok: boolean;
  strict: boolean;
  started: boolean;
  startMs: number;
  positions: PositionCheck[];
  /** Plain-words problems that refuse the bot, empty when ok. */
  problems: string[];
  /** Probe problems that do not refuse it (illegal moves, refused joins …) unless strict. */
  warnings: string[];
  logTail: string;
}

/** A game and rule set played over all rounds: its own strategies, W and metrics. */
export interface TrackId {
  game: string;
  variant: string;
}

export const trackName = (t: TrackId) => `${t.game}-${t.variant}`;
export const strategyId = (agent: string, round: number) => `${agent}@r${round}`;

export interface StrategyRecord {
  id: string;
  agent: string;
  agentKind: string;
  round: number;
  game: string;
  variant: string;
  /** The bot folder inside the run directory. */
  dir: string;
  /** The task track it was built for, when not standard (records/task-track.ts). */
  taskTrack?: TaskTrack;
  /** sha256 over the bot folder's files (paths and contents), hex. */
  hash: string;
  /** ok = validated; failed = did not build or validate: plays as a forfeiting stand-in. */
  status: 'ok' | 'failed';
  /** Why it failed, in words: "<reason>: <what the reason means> — <detail>". */
  failure?: string;
  /** The failure's name (agents/core/failure.ts: auth, rate_limited, server_error, context_length, budget, no_bot, invalid_bot, agent_error). */
  failureReason?: string;
  /** Set when the run's budget (--budget-usd) was reached while this strategy was being developed: the development was stopped there (why); its bot is what it had written. */
  budgetStopped?: string;
  /** Set when the run's budget (--budget-usd) was reached before this strategy was developed: the agent's previous round's bot, carried over. */
  carriedOver?: string;
  /** Validation problems that did not keep the bot out (illegal moves on validation positions, refused joins). */
  warnings?: string[];
  cost: CostRecord;
  validation?: ValidationReport;
  buildLog: string;
}

/** Head-to-head record from one strategy's side. */
export interface HeadToHead {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Mean score in [0, 1]. */
  score: number;
}

/** Table-game extras of a round_report.json standings row; present only for strategies that played tables. */
export interface TableStanding {
  /** Mean finishing place (1 = best) over its tables. */
  avgPlace?: number;
  /** Mean final chips over its tables. */
  avgChips?: number;
  /** Failed requests by kind (timeout, illegal …): at a table they fold instead of ending the game. */
  errors?: Record<string, number>;
}

/** round_report.json: what the next round's agents read about round n (our richer JSON). */
export interface RoundReport {
  game: string;
  variant: string;
  round: number;
  policy: string;
  strategies: Array<{
    id: string;
    agent: string;
    round: number;
    status: 'ok' | 'failed';
    failure?: string;
    warnings?: string[];
  }>;
  /**
   * Every strategy that played a game in round n (round-n strategies and their older opponents).
   * At tables (Hold'em) a row counts tables: won (wins), lost (losses), a split win (draws), and
   * score = tables won with a split counting its share ÷ tables.
   */
  standings: Array<
    { id: string; agent: string; round: number } & HeadToHead & {
        failures: Record<string, number>;
        avgMoveMs: number;
      } & TableStanding
  >;
  /**
   * pairwise[a][b]: a's record against b, over round n's games. At tables: one game per table the
   * two shared, won by whoever finished ahead (a draw on the same place).
   */
  pairwise: Record<string, Record<string, HeadToHead>>;
  games: number;
}

/** Per-agent error rates over every bot request of a track (paper Table 16). */
export interface ErrorRates {
  requests: number;
  timeout: number;
  http_error: number;
  malformed: number;
  illegal: number;
  crash: number;
  /** (all of the above) / requests */
  rate: number;
}

export interface TrackSummary extends TrackId {
  agents: string[];
  /** Games whose bots ran in the unsafe sandbox (MatchResult.sandbox "unsafe": no isolation); absent when none did. */
  unsandboxedGames?: number;
  rounds: number;
  policy: string;
  W: ScoreMatrixJSON;
  metrics: AllMetrics;
  bootstrap: BootstrapResult;
  /** Elo per strategy label (agent@round): the points of ratings.strategies. */
  elo: Record<string, number>;
  /** Bradley–Terry–Davidson ratings with intervals, per strategy and per agent. */
  ratings: Ratings;
  /** Tracks of tables of more than two players (Hold'em, Undercover): Plackett–Luce ratings over their places. */
  tableRatings?: TableRatings;
  errors: Record<string, ErrorRates>;
  /** Summed over the agent's rounds in this track. */
  cost: Record<string, CostRecord & { rounds: number }>;
  strategies: Array<
    Pick<StrategyRecord, 'id' | 'agent' | 'round' | 'status' | 'failure' | 'warnings' | 'hash'> &
      Partial<Pick<StrategyRecord, 'cost' | 'carriedOver' | 'budgetStopped'>>
  >;
  games: number;
  /** How the track's games ended: termination ('normal', 'timeout', …) → games. */
  terminations?: Record<string, number>;
  /**
   * Batch-table games (Hold'em): win rate per table kind (own / round / field) and strategy id,
   * the paper's figures. W and the metrics above come from the pairwise projection instead.
   */
  tableWinRates?: Record<string, Record<string, WinRate>>;
  /** With reps 'auto': the batches played after the first pass and why they stopped. */
  autoReps?: AutoRepsLog;
  /**
   * What the track's bots were seen attempting against the game's integrity, or could not be held
   * to, per strategy and kind (reports/integrity.ts); absent when nothing was seen.
   */
  integrity?: IntegrityRow[];
  /**
   * Per LLM-player agent: decisions its model was asked for, how many were random fallbacks, and
   * its play-time tokens and estimated dollars per round (reports/llm-player-use.ts).
   */
  llmPlayers?: Record<
    string,
    {
      decisions: number;
      fallbacks: number;
      play?: Record<string, { tokens: NonNullable<CostRecord['tokens']>; costUsd: number | null }>;
      truncated?: boolean;
      /** What its model was sent and what the run asked for (reports/llm-player-use.ts). */
      sampling?: string;
      /** Decisions refused as invalid requests. */
      refused?: number;
    }
  >;
}

/** One batch of adaptive repetitions (`reps: auto`). */
export interface AutoBatch {
  batch: number;
  units: string[];
  games: number;
  /** L1 fluctuation of W over the cells this batch played (null until measured). */
  fluctuation: number | null;
}

/** Why adaptive repetitions stopped: W stable, intervals narrow enough, games or minutes spent, nothing left to gain. */
export type StopReason = 'stable' | 'width' | 'budget' | 'time' | 'nothing';

/** The adaptive repetitions of one track: tracks/<track>/auto-reps.json. */
export interface AutoRepsLog {
  /** Games of the first pass (the schedule played once). */
  firstPass: number;
  games: number;
  batches: AutoBatch[];
  /** Widest S or L interval at the end (null when not measured). */
  maxWidth: number | null;
  stopped: { reason: StopReason; detail: string } | null;
}

export interface LeaderboardEntry {
  agent: string;
  meanRankS: number | null;
  meanRankL: number | null;
  meanS: number | null;
  meanL: number | null;
  /** rankProbabilities[r−1]: share of bootstrap samples in which the agent holds leaderboard place r. */
  rankProbabilities?: number[];
  /** Share of samples in which the agent is placed above the next agent on the board (null for the last). */
  aboveNext?: number | null;
}

export interface TourneySummary {
  runId: string;
  runDir: string;
  createdAt: string;
  finishedAt: string;
  config: unknown;
  tracks: TrackSummary[];
  /** Generalizability U per game, where both rule sets ran with the same agents. */
  generalizability: Record<string, Record<string, number | null>>;
  /** Average rank per agent over the tracks (paper Table 3), by S and by L. */
  leaderboard: LeaderboardEntry[];
  /** One Bradley–Terry rating per agent over every track, each track weighing the same (absent with fewer than two agents). */
  crossGame?: CrossGameRatings;
  /** What the journal's chain says of the results (summaries written before it have none). */
  journal?: JournalIntegrity;
  /** Set when `catarena report` rebuilt a run that did not finish: games played of those scheduled, and what was dropped. */
  incomplete?: { played: number; scheduled: number; line: string };
  /** Its strategies rated on the anchor pools (--anchors; anchored.json), when it rated them. */
  anchored?: AnchoredStrategy[];
  /** The model exchanges the run recorded (recordings/: util/exchange-tape/), when it recorded any. */
  modelExchanges?: { exchanges: number; bytes: number; bodies: number };
}

/** The report's line on what a run recorded of its model exchanges. */
export function recordingsLine(r: NonNullable<TourneySummary['modelExchanges']>): string {
  const size =
    r.bytes >= 1024 * 1024 ? `${(r.bytes / 1024 / 1024).toFixed(1)} MiB` : `${(r.bytes / 1024).toFixed(1)} KiB`;
  return `Model exchanges recorded: ${r.exchanges} (${r.bodies} distinct bodies, ${size} in ${RUN_DIRS.recordings}/; catarena rerun replays them)`;
}

/** One finished tourney in the run index (<out>/index.jsonl; orchestrator/run/run-index.ts). */
export interface RunIndexEntry {
  runId: string;
  runDir: string;
  /** The machine whose file system holds runDir (runs indexed before this field have none). */
  host?: string;
  /** The scheduler that started it ("nightly"), if any. */
  schedule?: string;
  /** The seed it played (scheduled nights each get their own; runs indexed before this field have none). */
  seed?: number;
  finishedAt: string;
  games: string[];
  rounds: number;
  /** Matches played in this run, and how many of them were reused from earlier runs. */
  matches: number;
  reused: number;
  leaderboard: LeaderboardEntry[];
  /** Per track, each agent's S and L with their 95% intervals (runs indexed before this field have none). */
  tracks?: Array<{ track: string; perAgent: Record<string, { S: Interval; L: Interval }> }>;
  /** Each agent's task track (records/task-track.ts); runs indexed before this field were all standard. */
  taskTracks?: Record<string, TaskTrack>;
  /**
   * Per game, the rules it was played under (games/registry.ts rulesLabel: "v2", "v2
   * adjudication=engine"); runs indexed before this field played every game under "v1".
   */
  rules?: Record<string, string>;
  /** A study of repeated tourneys (`--repeats`): how many; its leaderboard and intervals are the combined ones. */
  repeats?: number;
  /** What agents saw of rivals (records/opponent-code.ts); runs indexed before this field were visible. */
  opponentCode?: OpponentCode;
  /**
   * Each pair of agents' paired difference over all tracks (reports/compare.ts, as `catarena compare`
   * prints it for this run or study); runs indexed before this field, or whose journal could not be
   * read, have none.
   */
  pairwise?: PairwiseEntry[];
  /**
   * `--anchors`: each agent's last rated strategy per track on its game's anchor pool (Elo, 95%
   * interval, pool version); runs without --anchors, or indexed before this field, have none.
   */
  anchored?: Array<{ track: string; agent: string; round: number; elo: number; lo: number; hi: number; pool: number }>;
  /** The journal's end when the run finished, keyed (orchestrator/run/index-seal.ts); runs indexed before it, or without a key, have none. */
  seal?: JournalSeal;
}

/** One metric's overall ("all tracks") paired difference A − B: mean, 95% interval, sign-flip p, P(A better). */
export interface PairDifference {
  diff: number | null;
  lo: number | null;
  hi: number | null;
  p: number | null;
  pBetter: number | null;
}

export interface PairwiseEntry {
  a: string;
  b: string;
  /** Repeats in which both played (1 for a single run). */
  repeats: number;
  S: PairDifference | null;
  L: PairDifference | null;
}

/** A run's rules per game as indexed; a run indexed before rules were recorded played each of its games under "v1". */
export function rulesOfEntry(entry: Pick<RunIndexEntry, 'games' | 'rules'>): Record<string, string> {
  return entry.rules ?? Object.fromEntries(entry.games.map((g) => [g, 'v1']));
}

/** The games two runs both played under different rules, as "chess v1 → v2". */
export function rulesChanges(
  before: Pick<RunIndexEntry, 'games' | 'rules'>,
  after: Pick<RunIndexEntry, 'games' | 'rules'>,
): string[] {
  const a = rulesOfEntry(before),
    b = rulesOfEntry(after);
  return Object.keys(b)
    .filter((g) => a[g] !== undefined && a[g] !== b[g])
    .sort()
    .map((g) => `${g} ${a[g]} → ${b[g]}`);
}

/** One strategy's integrity events of one kind over a track's games (MatchResult.integrity summed). */
export interface IntegrityRow {
  /** The strategy's label (agent@round). */
  strategy: string;
  kind: IntegrityEvent['kind'];
  /** Events summed over its games. */
  count: number;
  /** Games in which it was seen. */
  games: number;
  /** One example (the first game's). */
  example: string;
}
