// The developer port: what a round asks of whoever develops a strategy (this process,
// tourney/develop.ts, or workers through the queue, tourney/queued-developer.ts). Both import it;
// neither imports the other's module, so the two stay out of an import circle.
import type { ExchangeTap } from '../../util/exchange-tape/tape.ts';
import type { Agent } from '../../agents/core/types.ts';
import type { BudgetLease } from '../../agents/core/run-budget.ts';
import type { StrategyRecord, TrackId } from '../../records/tourney.ts';
import type { BotHandle, Sandbox } from '../../sandbox/types.ts';
import type { GameServerPool } from '../game-server/game-servers.ts';
import type { RunDir } from '../run/run-dir.ts';
import type { DevelopSettings } from '../queue/develop-jobs.ts';

export interface DevelopStep extends DevelopSettings {
  agent: Agent;
  track: TrackId;
  round: number;
  /** The run directory: the workspace and the strategy go to their places in it. */
  run: RunDir;
  previous?: { bots: Array<{ agent: string; dir: string }>; logsDir: string };
  sandbox: Sandbox;
  hosts: GameServerPool;
  /**
   * Keep the bot that passed validation running, logging to `logFile`, and hand it to `take`
   * (a local tourney plays with it instead of starting it again).
   */
  keepBot?: { logFile(id: string): string; take(id: string, bot: BotHandle): void };
  /** A workspace already built (by a queue's coordinator, unpacked on a worker): copied instead of built from `previous`. */
  workspaceFrom?: string;
  /** The run's budget's hold on this development (--budget-usd): every model request goes through it. Local only: a queue's worker develops without it. */
  spend?: BudgetLease;
  /** Records (or replays) the development's model exchanges (util/exchange-tape/); local developments only. */
  exchanges?: ExchangeTap;
}

/**
 * Where development happens: in this process (`developStrategy`), or as queue jobs that workers
 * take (orchestrator/tourney/queued-developer.ts). A run picks one with `createDeveloper`.
 */
export interface Developer {
  develop(step: DevelopStep): Promise<StrategyRecord>;
  /** Developments that may be under way at once (default: config developConcurrency). */
  readonly concurrency?: number;
  close(): Promise<void>;
}

/** What the step's workspace is built from (without a game server: the machine that develops adds its own). */
export function workspaceInput(step: DevelopStep) {
  const { agent, track, round } = step;
  return {
    dir: step.run.workspaceDir(track, round, agent.id),
    game: track.game,
    variant: track.variant,
    round,
    agentId: agent.id,
    seed: step.seed,
    moveTimeoutMs: step.moveTimeoutMs,
    previous: step.previous,
    taskTrack: step.taskTrack,
    opponentCode: step.opponentCode,
  };
}
