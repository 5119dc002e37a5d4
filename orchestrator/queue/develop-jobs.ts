// What a development job carries (with --queue, each agent × track × round × repeat develops on a
// worker): the agent as its spec and options — the names of the variables its key is read from,
// never a key —, the workspace the coordinator built, packed in the artifact store, and the step's
// settings; back come the strategy record and, as one artifact, the bot folder, the workspace as
// the agent left it (its tool log or CLI output) and the validation log.
// Each agent has its own queue, so that only workers able to run it (its key set, its image
// present) take its jobs. The coordinator registers the queues it uses; workers check each one
// once and record what they found, for `catarena queue status`.
import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Agent } from '../../agents/core/types.ts';
import type { LlmPlayerSampling } from '../../agents/llm-player/agent.ts';
import { SECRET_ENV_VARS } from '../../agents/builtin/models.ts';
import { CLIS } from '../../agents/cli/clis.ts';
import { AGENT_KINDS } from '../../agents/kinds.ts';
import { createAgent, type CreateAgentOptions } from '../../agents/registry.ts';
import { runModelTable, type ModelTableOverlay } from '../../agents/core/models.ts';
import { deriveSeed } from '../../util/rng.ts';
import { llmPlayerSampling, type TourneyConfig } from '../config/tourney-config.ts';
import type { ModelPrice } from '../../agents/core/prices.ts';
import type { TaskTrack } from '../../records/task-track.ts';
import type { OpponentCode } from '../../records/opponent-code.ts';
import { trackName, type StrategyRecord, type TrackId } from '../../records/tourney.ts';
import { PREFIX } from './names.ts';
import { runKey } from './jobs.ts';

/** An agent as a worker creates it (agents/registry.ts createAgent): everything but secrets. */
export interface AgentRoute {
  spec: string;
  seed: number;
  /** The run's sandbox kind (the built-in agent runs its commands in a container under docker). */
  sandbox?: string;
  llmPlayer?: LlmPlayerSampling;
  webTools?: boolean;
  /** The agent's own key variable's name and base URL (config agentEndpoints). */
  endpoint?: { keyEnv?: string; baseUrl?: string };
  /** A dir: agent's folder, as an artifact hash (set on its jobs: the folder is on the coordinator). */
  folder?: string;
  /** The run's entries over the model table (config `models:`): the worker merges them over its own copy. */
  models?: ModelTableOverlay;
}

/** The route of a config's agent spec: what the run creates it from. */
export function agentRoute(config: TourneyConfig, spec: string): AgentRoute {
  return {
    spec,
    seed: deriveSeed(config.seed, 'agent', spec),
    sandbox: config.sandbox,
    llmPlayer: llmPlayerSampling(config),
    webTools: config.webTools,
    endpoint: config.agentEndpoints[spec],
    ...(config.models?.families.length || config.models?.asOf ? { models: config.models } : {}),
  };
}

/** What createAgent is given for a route: its settings, and the run's model table (its `models:` over this machine's). */
export function routeAgentOptions(route: AgentRoute): CreateAgentOptions {
  return {
    sandbox: route.sandbox,
    llmPlayer: route.llmPlayer,
    webTools: route.webTools,
    endpoint: route.endpoint,
    ...(route.models ? { modelTable: runModelTable(route.models) } : {}),
  };
}

/** The agent of a route, on the machine that runs it (its key is read from this machine's environment). */
export function createRoutedAgent(route: AgentRoute): Agent {
  return createAgent(route.spec, route.seed, routeAgentOptions(route));
}

/** dir: agents' folders are on the coordinator: their jobs carry them (AgentRoute.folder). */
export const isDirSpec = (spec: string) => spec.trimStart().startsWith(AGENT_KINDS.dir.prefix);

/**
 * The coordinator's stand-in for an agent that develops on workers: its id and kind, as a worker
 * creates it. Agents read their key when created; a coordinator without it gets a placeholder for
 * that one synchronous call, and the stand-in cannot develop, so no key is ever needed here.
 */
export function standInAgent(route: AgentRoute): Agent {
  const vars = [
    ...SECRET_ENV_VARS,
    ...Object.values(CLIS).flatMap((c) => c.keyVars),
    ...(route.endpoint?.keyEnv ? [route.endpoint.keyEnv] : []),
  ];
  const unset = [...new Set(vars)].filter((v) => !process.env[v]?.trim());
  for (const v of unset) process.env[v] = 'placeholder-on-the-coordinator';
  let agent: Agent;
  try {
    agent = createRoutedAgent(route);
  } finally {
    for (const v of unset) delete process.env[v];
  }
  return {
    id: agent.id,
    kind: agent.kind,
    mayPassEnv: agent.mayPassEnv,
    develop: () => Promise.reject(new Error(`${route.spec} develops on workers (--queue), not in the coordinator`)),
  };
}

/** A development's settings: the same in this process (DevelopStep) and in a job. */
export interface DevelopSettings {
  seed: number;
  moveTimeoutMs: number;
  developTimeoutMs: number;
  startTimeoutMs: number;
  /** Refuse a bot on any validation-position problem, not only when it cannot play (config strictValidation). */
  strictValidation?: boolean;
  /** The agent's task track: its task's last section and the language its bot must be in (default standard). */
  taskTrack?: TaskTrack;
  /** The agent's model's price (agents/core/prices.ts, config prices): its tokens' estimated dollars go into the cost record. */
  price?: ModelPrice;
  /** What the workspace shows of rivals (config opponentCode; unset: visible): its TASK.md says so. */
  opponentCode?: OpponentCode;
}

export interface DevelopJobData extends DevelopSettings {
  run: string;
  agent: AgentRoute;
  /** The agent's id in the run (a dir: agent's folder arrives under another name). */
  agentId: string;
  track: TrackId;
  round: number;
  /** The workspace the coordinator built (artifact hash). */
  workspace: string;
}

/** Folders of a development's result artifact. */
export const RESULT_LAYOUT = { strategy: 'strategy', workspace: 'workspace', validateLog: 'validate.log' } as const;

export interface DevelopJobResult {
  /** The record as the worker saved it (its `dir` is the worker's; the coordinator sets its own). */
  record: StrategyRecord;
  /** Artifact hash of the result folder (RESULT_LAYOUT). */
  result: string;
  /** The worker that developed it. */
  worker: string;
}

/**
 * One queue per agent route: a readable name from the spec and a hash of the whole route (two
 * routes with the same spec and different key variables must not share a queue). BullMQ queue
 * names must not contain ':'.
 */
export function developQueueName(route: AgentRoute): string {
  const { folder: _, ...rest } = route;
  const hash = createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 10);
  return `develop.${route.spec.replace(/[^\w.@-]+/g, '_').slice(0, 48)}.${hash}`;
}

export const developJobId = (run: string, track: TrackId, round: number, agentId: string) =>
  `${runKey(run)}.develop.${runKey(trackName(track))}.${round}.${runKey(agentId)}`;

/**
 * An infrastructure failure (an artifact that cannot be fetched, a worker that died) is retried;
 * an agent that fails is a failed build, recorded, not an error. Results are kept as long as
 * finished games are (a coordinator that was down collects them on resume).
 */
export const DEVELOP_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 20_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/** The development queues coordinators use: queue name → its route (workers poll this). */
const ROUTES_KEY = `${PREFIX}:develop:routes`;
/** What each worker found about each queue: worker name → {queue: capability}, expiring. */
const capabilityKey = (worker: string) => `${PREFIX}:develop:capability:${worker}`;
const CAPABILITY_PATTERN = `${PREFIX}:develop:capability:*`;

export interface RouteCapability {
  /** Whether this worker takes the queue's jobs. */
  ok: boolean;
  /** What is missing (or "ready"), in words. */
  detail: string;
}

export async function registerRoute(redis: Redis, route: AgentRoute): Promise<string> {
  const { folder: _, ...rest } = route;
  const queue = developQueueName(rest);
  await redis.hset(ROUTES_KEY, queue, JSON.stringify(rest));
  return queue;
}

export async function listRoutes(redis: Redis): Promise<Map<string, AgentRoute>> {
  const all = await redis.hgetall(ROUTES_KEY);
  return new Map(Object.entries(all).map(([queue, route]) => [queue, JSON.parse(route) as AgentRoute]));
}

/** Records a worker's capabilities; they expire unless the worker refreshes them (it does while it runs). */
export async function reportCapabilities(
  redis: Redis,
  worker: string,
  found: Map<string, RouteCapability>,
  ttlSeconds: number,
): Promise<void> {
  if (!found.size) return;
  const key = capabilityKey(worker);
  await redis
    .multi()
    .hset(key, Object.fromEntries([...found].map(([q, c]) => [q, JSON.stringify(c)])))
    .expire(key, ttlSeconds)
    .exec();
}

export async function clearCapabilities(redis: Redis, worker: string): Promise<void> {
  await redis.del(capabilityKey(worker));
}

/** worker → queue → capability, for every worker that reported recently. */
export async function readCapabilities(redis: Redis): Promise<Map<string, Map<string, RouteCapability>>> {
  const out = new Map<string, Map<string, RouteCapability>>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', CAPABILITY_PATTERN, 'COUNT', 200);
    cursor = next;
    for (const key of keys) {
      const fields = await redis.hgetall(key);
      out.set(
        key.slice(CAPABILITY_PATTERN.length - 1),
        new Map(Object.entries(fields).map(([q, c]) => [q, JSON.parse(c) as RouteCapability])),
      );
    }
  } while (cursor !== '0');
  return out;
}
