// One agent develops one strategy: build its workspace, let it work within its budget, copy the
// bot out, hash it and validate it. A strategy that fails any step is recorded as failed with
// its logs, and plays as a forfeiting stand-in: it is never silently dropped.
import fs from 'node:fs/promises';
import path from 'node:path';
import { buildWorkspace, copyWorkspace } from '../../agents/core/workspace.ts';
import { copyTree, droppedText, hashDir, treeSize, type TreeSize } from '../../util/fs.ts';
import {
  classifyLlmError,
  describeFailure,
  type BuildFailure,
  type BuildFailureReason,
} from '../../agents/core/failure.ts';
import type { Agent } from '../../agents/core/types.ts';
import { estimateCostUsd } from '../../agents/core/prices.ts';
import { type CostRecord, strategyId, type StrategyRecord, type ValidationReport } from '../../records/tourney.ts';
import { PASS_ENV_FILE } from '../../sandbox/bot-env.ts';
import type { TaskTrack } from '../../records/task-track.ts';
import { generalProblems, positionMark, validateAndKeep, validateBot } from '../validate.ts';
import { saveStrategyRecord, type RunDir } from '../run/run-dir.ts';
import type { TourneyConfig } from '../config/tourney-config.ts';
import { agentRoute, createRoutedAgent, standInAgent } from '../queue/develop-jobs.ts';
import { workspaceInput, type Developer, type DevelopStep } from './developer.ts';

export type { Developer, DevelopStep } from './developer.ts';

const NO_COST: CostRecord = { wallMs: 0, toolCalls: 0, tokens: null, linesOfCode: 0 };

/**
 * The most a bot folder may hold (what copyTree copies: node_modules, .git and links are left
 * out). A strategy is copied into the run, into each sandbox that starts it and into every rival's
 * next workspace, synchronously: without a cap one agent's sparse file of 100 GB (4 KiB on its
 * disk) fills the host's disk and stalls every game in flight while it is copied.
 */
export const BOT_FOLDER_CAP: TreeSize = { bytes: 256 * 1024 ** 2, entries: 10_000 };
/**
 * The most an agent's workspace may hold once it is done: a finished run reads every byte of its
 * workspaces into its store (a hash each), and the queue copies a worker's workspace back. A
 * larger one is emptied, with a note saying what was found (its bot is judged on its own cap).
 */
export const WORKSPACE_CAP: TreeSize = { bytes: 2 * 1024 ** 3, entries: 100_000 };
/** The note an emptied workspace keeps. */
export const WORKSPACE_REMOVED_NOTE = 'catarena-workspace-removed.txt';

/** A failed build with its reason's name (agents/core/failure.ts). */
class BuildError extends Error {
  constructor(
    readonly reason: BuildFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The failed build's reason and message: what the agent said when it gave up (a wrong key, a
 * rate limit …) wins over what the orchestrator then found (no bot, a failed check), which only
 * repeats the consequence; an agent that threw is classified from its message.
 */
function buildFailure(err: unknown, agentSaid: BuildFailure | undefined): BuildFailure {
  const found =
    err instanceof BuildError ? err.reason : (classifyLlmError((err as Error).message ?? '') ?? 'agent_error');
  if (
    agentSaid &&
    (found === 'no_bot' || found === 'invalid_bot') &&
    agentSaid.reason !== 'no_bot' &&
    agentSaid.reason !== 'invalid_bot'
  )
    return agentSaid;
  return { reason: found, detail: (err as Error).message ?? String(err) };
}

export async function developStrategy(step: DevelopStep): Promise<StrategyRecord> {
  const { agent, track, round } = step;
  const dir = step.run.strategyDir(track, round, agent.id);
  const record: StrategyRecord = {
    id: strategyId(agent.id, round),
    agent: agent.id,
    agentKind: agent.kind,
    round,
    game: track.game,
    variant: track.variant,
    dir,
    ...(step.taskTrack && step.taskTrack !== 'standard' ? { taskTrack: step.taskTrack } : {}),
    hash: '',
    status: 'failed',
    cost: NO_COST,
    buildLog: '',
  };
  const log: string[] = [];
  let agentSaid: BuildFailure | undefined;
  try {
    const workspace = await prepareWorkspace(step);
    const started = Date.now();
    const result = await withTimeout(
      agent.develop(workspace, {
        wallMs: step.developTimeoutMs,
        ...(step.spend ? { spend: step.spend } : {}),
        ...(step.exchanges ? { exchanges: step.exchanges } : {}),
      }),
      step.developTimeoutMs,
      `${agent.id} did not finish developing within ${step.developTimeoutMs} ms`,
    );
    agentSaid = result.failure;
    record.cost = developCost(result.cost, Date.now() - started, step.price);
    log.push(
      `# ${agent.kind} (${agent.id}), round ${round}, ${track.game}/${track.variant}`,
      '',
      result.log.trimEnd(),
      '',
    );
    record.hash = await installBot(agent, result.botDir, dir, log);
    try {
      await fs.access(path.join(dir, 'start_ai.sh'));
    } catch {
      throw new BuildError('no_bot', 'the agent wrote no start_ai.sh');
    }
    const validation = await validateDeveloped(step, record);
    record.validation = validation;
    if (validation.warnings.length) record.warnings = validation.warnings;
    log.push(validationText(validation));
    if (!validation.ok)
      throw new BuildError('invalid_bot', `validation failed: ${validation.problems[0] ?? 'no legal answer'}`);
    record.status = 'ok';
  } catch (err) {
    const failure = buildFailure(err, agentSaid);
    record.status = 'failed';
    record.failureReason = failure.reason;
    record.failure = describeFailure(failure);
    log.push(`## FAILED: ${record.failure}`);
    await fs.mkdir(dir, { recursive: true });
  }
  await capWorkspace(workspaceInput(step).dir, log);
  if (step.spend?.stopped) {
    record.budgetStopped = step.spend.stopped;
    log.push('', `stopped by the run's budget: ${step.spend.stopped}`);
  }
  record.buildLog = `${log.join('\n')}\n`;
  await saveStrategyRecord(record);
  return record;
}

/**
 * The agent's workspace, fresh or copied from the coordinator's. Agents may test their bot as the
 * arena will before handing it in (the built-in agent's test_bot tool): the same validation as the
 * developed bot's, on the workspace's output folder.
 */
async function prepareWorkspace(step: DevelopStep) {
  const { track } = step;
  const host = await step.hosts.get(track.game, track.variant);
  const input = { ...workspaceInput(step), gameServerUrl: host.url };
  const workspace = step.workspaceFrom ? await copyWorkspace(step.workspaceFrom, input) : await buildWorkspace(input);
  let checks = 0;
  workspace.check = async () => {
    const report = await validateBot({
      ...validationOf(step, workspace.outputDir),
      logFile: path.join(workspace.dir, `.check-${++checks}.log`),
    });
    return { ok: report.ok, report: validationText(report) };
  };
  return workspace;
}

/** The development's cost: the agent's own figure where it reports one (Claude Code's total_cost_usd), else the estimate. */
function developCost(cost: CostRecord, elapsedMs: number, price: DevelopStep['price']): CostRecord {
  const record = { ...cost, wallMs: cost.wallMs || elapsedMs };
  const estimate = cost.tokens ? estimateCostUsd(cost.tokens, price) : null;
  if (cost.reportedCostUsd !== undefined) record.costUsd = cost.reportedCostUsd;
  else if (cost.tokens) record.costUsd = estimate;
  if (estimate !== null && cost.reportedCostUsd !== undefined) record.estimatedCostUsd = estimate;
  return record;
}

/** Copies the agent's bot into the strategy folder (what it may not hand in removed); returns the folder's hash. */
async function installBot(agent: Agent, botDir: string, dir: string, log: string[]): Promise<string> {
  await fs.rm(dir, { recursive: true, force: true });
  const over = overCap(treeSize(botDir, BOT_FOLDER_CAP), BOT_FOLDER_CAP);
  if (over)
    throw new BuildError(
      'invalid_bot',
      `the bot folder is too large to hand in: ${over}; a strategy is copied into the run, every sandbox and each rival's next workspace, so keep data and build output out of it`,
    );
  const dropped = droppedText(await copyTree(botDir, dir));
  if (dropped) log.push(dropped, '');
  // catarena-env.json lets a bot receive named environment variables (API keys) in the process
  // sandbox; only a bot catarena wrote may have it (Agent.mayPassEnv), never code an agent wrote.
  if (
    !agent.mayPassEnv &&
    (await fs.rm(path.join(dir, PASS_ENV_FILE)).then(
      () => true,
      () => false,
    ))
  ) {
    log.push(`removed ${PASS_ENV_FILE}: only llm-player bots may ask for environment variables`, '');
  }
  return hashDir(dir);
}

/** Which part of a cap a folder's size passed, in words ("over 256 MiB …"), or null within the cap. */
function overCap(size: TreeSize, cap: TreeSize): string | null {
  if (size.bytes > cap.bytes)
    return `over ${cap.bytes / 2 ** 20} MiB (files count at the size they report, sparse or not)`;
  if (size.entries > cap.entries) return `over ${cap.entries} files and folders`;
  return null;
}

/** Empties a workspace over WORKSPACE_CAP but for a note; says so in the build log. */
async function capWorkspace(dir: string, log: string[]): Promise<void> {
  const over = overCap(treeSize(dir, WORKSPACE_CAP), WORKSPACE_CAP);
  if (!over) return;
  const why = `the workspace was emptied when the agent was done: it held ${over}, more than a run keeps of what an agent saw`;
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, WORKSPACE_REMOVED_NOTE), `${why}\n`);
  log.push('', why);
}

/** How the bot in `dir` is validated for this development: the agent's own checks and the final one alike. */
function validationOf(step: DevelopStep, dir: string) {
  return {
    dir,
    game: step.track.game,
    variant: step.track.variant,
    sandbox: step.sandbox,
    hosts: step.hosts,
    moveMs: step.moveTimeoutMs,
    startTimeoutMs: step.startTimeoutMs,
    strict: step.strictValidation,
    taskTrack: step.taskTrack,
  };
}

/** Validates the developed bot; with keepBot, one that passes stays running for the fleet. */
async function validateDeveloped(step: DevelopStep, record: StrategyRecord): Promise<ValidationReport> {
  const checked = validationOf(step, record.dir);
  const { keepBot } = step;
  const { report: validation, bot } = keepBot
    ? await validateAndKeep({ ...checked, logFile: keepBot.logFile(record.id), name: record.id })
    : { report: await validateBot({ ...checked, logFile: `${record.dir}.validate.log` }), bot: undefined };
  if (bot) keepBot!.take(record.id, bot);
  return validation;
}

export const localDeveloper: Developer = { develop: developStrategy, close: async () => {} };

export interface DeveloperChoice {
  config: TourneyConfig;
  agents: Agent[];
  /** Whether `agents` were created from config.agents, index for index (then a worker can create them too). */
  fromConfig: boolean;
  run: RunDir;
  report: (message: string) => void;
  /** How long the queue's Redis may be unreachable before the run stops. */
  graceMs?: number;
}

/**
 * The run's agents, from config.agents. With a queue, those that develop on workers are stand-ins
 * (their id and kind): the coordinator starts no agent and needs no key.
 */
export function createRunAgents(config: TourneyConfig): Agent[] {
  return config.agents.map((spec) => {
    const route = agentRoute(config, spec);
    return config.queue ? standInAgent(route) : createRoutedAgent(route);
  });
}

/**
 * The one place a run's developer is chosen: in this process, or, with a queue, on workers —
 * except agent objects handed to the run (a worker could not create them).
 */
export async function createDeveloper(choice: DeveloperChoice): Promise<Developer> {
  const { config } = choice;
  if (!config.queue) return localDeveloper;
  const { QueuedDeveloper } = await import('./queued-developer.ts');
  const routes = new Map(
    choice.fromConfig ? config.agents.map((spec, i) => [choice.agents[i]!.id, agentRoute(config, spec)] as const) : [],
  );
  return QueuedDeveloper.open({
    url: config.queue,
    run: await choice.run.identity(),
    routes,
    local: localDeveloper,
    localConcurrency: config.developConcurrency,
    report: choice.report,
    graceMs: choice.graceMs,
  });
}

/** A validation report in words: what the build log and an agent's test_bot tool show. */
export function validationText(v: ValidationReport): string {
  const verdict = v.ok
    ? v.warnings.length
      ? `passed with ${v.warnings.length} warning${v.warnings.length > 1 ? 's' : ''} (the bot plays; its games will show these errors)`
      : 'passed'
    : 'FAILED';
  const lines = [`## validation${v.strict ? ' (strict)' : ''}: ${verdict}`];
  lines.push(
    ...v.positions.map(
      (p) => `- ${positionMark(v, p)} ${p.name} (${p.latencyMs} ms)${p.problem ? `: ${p.problem}` : ''}`,
    ),
    ...generalProblems(v).map((p) => `- ${p}`),
  );
  if (!v.ok && v.logTail.trim())
    lines.push('--- bot output (last lines) ---', ...v.logTail.trimEnd().split('\n').slice(-15));
  return lines.join('\n');
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new BuildError('budget', message)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** agentTracks may only name agents of the run: a typo would silently leave an agent on the run's track. */
export function checkAgentTracks(
  config: { agentTracks?: Record<string, TaskTrack> },
  agents: Array<Pick<Agent, 'id'>>,
): void {
  const ids = agents.map((a) => a.id);
  const unknown = Object.keys(config.agentTracks ?? {}).filter((id) => !ids.includes(id));
  if (unknown.length)
    throw new Error(`agentTracks names no agent of this run: ${unknown.join(', ')}; the agents are ${ids.join(', ')}`);
}

/**
 * The run's budget was reached (--budget-usd) before this strategy was developed: no agent is
 * started; the agent's previous round's bot plays again under this round's id (its record says
 * so), or, in round 1, the strategy is a failed build with reason budget.
 */
export async function carryOverStrategy(
  step: Pick<DevelopStep, 'agent' | 'track' | 'round' | 'run'>,
  previous: StrategyRecord | undefined,
  why: string,
): Promise<StrategyRecord> {
  const { agent, track, round } = step;
  const dir = step.run.strategyDir(track, round, agent.id);
  await fs.rm(dir, { recursive: true, force: true });
  const base: StrategyRecord = {
    id: strategyId(agent.id, round),
    agent: agent.id,
    agentKind: agent.kind,
    round,
    game: track.game,
    variant: track.variant,
    dir,
    hash: '',
    status: 'failed',
    cost: NO_COST,
    buildLog: '',
    carriedOver: why,
  };
  let record: StrategyRecord;
  if (previous) {
    await copyTree(previous.dir, dir);
    record = {
      ...previous,
      ...base,
      hash: previous.hash,
      status: previous.status,
      buildLog: `# ${agent.kind} (${agent.id}), round ${round}: not developed: ${why}; ${previous.id}'s bot plays again\n`,
    };
  } else {
    await fs.mkdir(dir, { recursive: true });
    const failure: BuildFailure = { reason: 'budget', detail: why };
    record = {
      ...base,
      failureReason: 'budget',
      failure: describeFailure(failure),
      buildLog: `# ${agent.kind} (${agent.id}), round ${round}: not developed: ${why}\n`,
    };
  }
  await saveStrategyRecord(record);
  return record;
}
