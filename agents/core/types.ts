// The Agent port: an agent develops one strategy (a bot folder with start_ai.sh) for one game,
// rule set and round, inside a workspace that holds exactly what the protocol allows it to see.
import type { ExchangeTap } from '../../util/exchange-tape/tape.ts';
import type { TaskTrack } from '../../records/task-track.ts';
import type { OpponentCode } from '../../records/opponent-code.ts';
import type { CostRecord } from '../../records/tourney.ts';
import type { BuildFailure } from './failure.ts';
import type { PreflightCheck } from './preflight.ts';
import type { BudgetLease } from './run-budget.ts';
import type { ModelPrice } from './prices.ts';

export interface Workspace {
  /** Root of the workspace; the agent may read anything below it and nothing outside. */
  dir: string;
  game: string;
  variant: string;
  /** 1-based development round. */
  round: number;
  agentId: string;
  /** The game environment: README.md, develop_instruction.md, protocol.md, AI_example/ (a sample bot). */
  envDir: string;
  /** Where the agent writes its bot (start_ai.sh + code). */
  outputDir: string;
  /** Round > 1: the previous round's bot of every agent, as last_round/<agentId>/ (only the agent's own unless opponentCode is visible). */
  lastRoundDir?: string;
  /** What the workspace shows of rivals (records/opponent-code.ts); unset: visible. */
  opponentCode?: OpponentCode;
  /** Round > 1: the previous round's reports (CATArena file names plus round_report.json). */
  logsDir?: string;
  /** The task text, as the agent's prompt (also written to TASK.md). */
  task: string;
  /** The task track (records/task-track.ts): the task's last section and the language the bot must be in; default standard. */
  taskTrack?: TaskTrack;
  /** A live game server for self-play during development. */
  gameServerUrl?: string;
  /** Per-move deadline the bot will play under. */
  moveTimeoutMs: number;
  /** Seed for agents that make random choices (different seeds → different agents). */
  seed: number;
  /**
   * Start the bot in the output folder and probe it as the arena will (health, join, legal moves
   * on test positions); `report` explains any problem in words. Provided by the orchestrator;
   * agents may call it while developing and to judge whether an attempt produced a runnable bot.
   */
  check?: () => Promise<{ ok: boolean; report: string }>;
}

export interface DevelopBudget {
  /** Wall-clock limit for the whole development step. */
  wallMs: number;
  /** Step / tool-call limit for LLM agents. */
  maxSteps?: number;
  /**
   * The run's budget (--budget-usd), when it has one: every model request goes through it (admitted
   * before it is sent, charged with its answer's usage); its signal aborts once the run's spend
   * reached the cap, and the agent then stops and returns what exists.
   */
  spend?: BudgetLease;
  /**
   * The run's recording of this development's model exchanges (or, in a rerun, their replay):
   * every model request goes through it (util/exchange-tape/). Unset: nothing recorded.
   */
  exchanges?: ExchangeTap;
}

export interface DevelopResult {
  /** The bot folder written (normally workspace.outputDir). */
  botDir: string;
  cost: CostRecord;
  /** What the agent did, in words: written to the strategy's build log. */
  log: string;
  /** Set when the agent gave up without a runnable bot: why, by name (auth, rate_limited …). */
  failure?: BuildFailure;
}

/** What a preflight may need to know of the run. */
export interface PreflightContext {
  games: string[];
  sandbox: string;
}

export interface Agent {
  readonly id: string;
  /** e.g. offline:cautious, llm:minimal, cli:claude-code */
  readonly kind: string;
  /**
   * Whether its bot may keep catarena-env.json (named environment variables such as an API key,
   * process sandbox). Only a bot catarena wrote itself (the LLM-player's) may; code an agent
   * wrote never gets the orchestrator's keys.
   */
  readonly mayPassEnv?: boolean;
  /**
   * What the agent needs before a run spends anything (`catarena doctor`): its endpoint reachable
   * with the key accepted, its image, Docker. Agents that need nothing leave it out.
   */
  preflight?(context: PreflightContext): Promise<PreflightCheck[]>;
  /**
   * The most one development can cost at these prices (the run's budget reserves it before the
   * development starts); undefined where nothing bounds it (a CLI's session): the budget's cap
   * on every request still holds.
   */
  worstCaseUsd?(price: ModelPrice): number | undefined;
  develop(workspace: Workspace, budget: DevelopBudget): Promise<DevelopResult>;
}
