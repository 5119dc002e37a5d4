// The iterative tournament (CATArena's protocol): for each round, every agent develops a
// strategy per game and rule set, strategies are validated, round-n strategies play the round-n
// field and every earlier strategy (so W is complete at the end without replaying anything),
// and the round's logs are written for the next round's agents. A killed run resumes: developed
// strategies and journaled games are kept.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createAgent } from '../../agents/registry.ts';
import type { Agent } from '../../agents/types.ts';
import { deriveSeed } from '../../games/core/rng.ts';
import { adapterFor } from '../../games/registry.ts';
import { writeRoundLogs } from '../../reports/round-logs.ts';
import { createSandbox } from '../../sandbox/index.ts';
import { BotFleet } from '../executor/bot-fleet.ts';
import { executeLocal } from '../executor/local.ts';
import { executeQueued, MatchJobFailedError } from '../executor/queued.ts';
import { connectQueue, QueueUnavailableError } from '../queue/connection.ts';
import { ReuseCache, codeOf } from '../run/reuse.ts';
import { indexEntry, indexRun, runIdentity } from '../run/run-index.ts';
import { tableSpecs, tourneySeries } from '../formats/batch.ts';
import { duplicateMatches } from '../formats/duplicate.ts';
import { roundRobin } from '../formats/round-robin.ts';
import { GameServerPool } from '../host/game-servers.ts';
import { DEFAULT_LIMITS, matchId, type MatchSpec, type Replay } from '../match/types.ts';
import type { Progress } from '../progress.ts';
import { Journal } from '../run/journal.ts';
import { gameSettings, tracksOf, type TourneyConfig } from './config.ts';
import { developStrategy } from './develop.ts';
import { loadRecord } from './strategy-store.ts';
import { summarizeRun } from './summarize.ts';
import { trackName, type StrategyRecord, type TourneySummary, type TrackId } from './types.ts';

export interface TourneyOptions {
  config: TourneyConfig;
  runDir: string;
  progress?: Progress;
  signal?: AbortSignal;
  /** Agents to use instead of creating them from config.agents (programmatic use, tests). */
  agents?: Agent[];
  /** The scheduler that started this run, for the run index. */
  schedule?: string;
  /** How long the queue's Redis may be unreachable before the run stops (default 60 s). */
  queueGraceMs?: number;
}

export class InterruptedError extends Error {
  constructor(readonly runDir: string) {
    super(`interrupted; nothing finished is lost. Resume with: catarena resume ${runDir}`);
  }
}

export { tracksOf };

/**
 * Round n's games: pairwise games of round-n strategies against each other and every earlier
 * strategy (for Bridge as duplicate matches of `reps` boards), or for table games (Hold'em) the
 * round-n table and, after the last round, the own and field tables (formats/batch.ts).
 */
export function playSpecs(config: TourneyConfig, track: TrackId, rounds: StrategyRecord[][], round: number): MatchSpec[] {
  const { reps, moveTimeoutMs, options } = gameSettings(config, track.game);
  const common = { game: track.game, variant: track.variant, seed: deriveSeed(config.seed, trackName(track)), limits: { ...DEFAULT_LIMITS, moveMs: moveTimeoutMs }, policy: config.policy, options };
  const { tables, duplicate } = adapterFor(track.game);
  if (duplicate) {
    return duplicateMatches({ ...common, entrants: rounds[round - 1]!.map((r) => r.id), opponents: rounds.slice(0, round - 1).flat().map((r) => r.id), boards: reps, reps: 1 });
  }
  if (tables) {
    const series = tourneySeries(rounds.slice(0, round), round === config.rounds);
    return series.flatMap((s) => tableSpecs(s, { ...common, tableRounds: reps, maxSeats: tables.maxSeats }));
  }
  return roundRobin({ ...common, entrants: rounds[round - 1]!.map((r) => r.id), opponents: rounds.slice(0, round - 1).flat().map((r) => r.id), reps });
}

/** Why a strategy plays as a forfeiting stand-in (it failed its build or validation), or undefined. */
const forfeitOf = (r: StrategyRecord) => (r.status === 'failed' ? `failed build: ${r.failure}` : undefined);

export const roundDir = (runDir: string, track: TrackId, round: number) => path.join(runDir, 'tracks', trackName(track), `round_${round}`);

export async function runTourney(options: TourneyOptions): Promise<TourneySummary> {
  const { config, runDir, progress, signal } = options;
  // A queue that cannot be reached should fail now, not after the agents spent their budget.
  if (config.queue) (await connectQueue(config.queue, { warn: (m) => progress?.phase(`! ${m}`) })).disconnect();
  await fs.mkdir(runDir, { recursive: true });
  await fs.writeFile(path.join(runDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const agents: Agent[] = options.agents ?? config.agents.map((spec) => createAgent(spec, deriveSeed(config.seed, 'agent', spec), { sandbox: config.sandbox }));
  const sandbox = createSandbox(config.sandbox, { docker: config.docker });
  const hosts = new GameServerPool();
  const journal = await Journal.open(path.join(runDir, 'journal.jsonl'));
  const tracks = tracksOf(config);
  const fleets = new Map<string, BotFleet>();
  const history = new Map<string, StrategyRecord[][]>(); // track → records per round (index round−1)
  const reuse = config.reuse ? await ReuseCache.open(runDir) : null;
  if (reuse) progress?.phase(`--reuse: ${reuse.size} earlier results from ${reuse.runs} indexed runs`);
  const checkSignal = () => {
    if (signal?.aborted) throw new InterruptedError(runDir);
  };

  try {
    for (let round = 1; round <= config.rounds; round++) {
      for (const track of tracks) {
        checkSignal();
        const name = trackName(track);
        const { moveTimeoutMs } = gameSettings(config, track.game);
        const rounds = history.get(name) ?? [];
        history.set(name, rounds);
        const dir = roundDir(runDir, track, round);

        // 1. Develop (or reuse what a previous, interrupted run developed).
        progress?.phase(`round ${round}/${config.rounds} · ${name} · ${agents.length} agents developing`);
        const previous = round > 1 ? { bots: rounds[round - 2]!.map((r) => ({ agent: r.agent, dir: r.dir })), logsDir: path.join(roundDir(runDir, track, round - 1), 'logs') } : undefined;
        const records: StrategyRecord[] = [];
        for (const agent of agents) {
          checkSignal();
          const existing = await loadRecord(path.join(dir, 'strategies', agent.id));
          records.push(
            existing ??
              (await developStrategy({
                agent,
                track,
                round,
                roundDir: dir,
                previous,
                seed: deriveSeed(config.seed, agent.id, name, round),
                moveTimeoutMs,
                developTimeoutMs: config.developTimeoutMs,
                startTimeoutMs: config.startTimeoutMs,
                strictValidation: config.strictValidation,
                sandbox,
                hosts,
              })),
          );
        }
        rounds.push(records);
        for (const r of records.filter((s) => s.status === 'failed')) progress?.phase(`! ${r.id} failed to build (${r.failure}); it plays as a forfeiting stand-in`);

        // 2. Play: round-n strategies against each other and every earlier strategy.
        const specs = playSpecs(config, track, rounds, round);
        let pending = specs.filter((s) => !journal.has(matchId(s)));
        let done = specs.length - pending.length;
        progress?.phase(`round ${round}/${config.rounds} · ${name} · ${specs.length} games${done ? ` (${done} already played)` : ''}`);
        const onReplay = async (replay: Replay) => {
          await fs.mkdir(path.join(runDir, 'replays'), { recursive: true });
          await fs.writeFile(path.join(runDir, 'replays', `${replay.result.id}.json`), JSON.stringify(replay));
          await journal.append(replay.result);
          progress?.tick(++done, specs.length, `round ${round} ${name}`);
        };
        if (reuse) {
          const code = new Map(rounds.flat().map((r) => [r.id, codeOf(r)]));
          const played: MatchSpec[] = [];
          for (const spec of pending) {
            const result = await reuse.take(spec, (id) => code.get(id), config.sandbox, runDir);
            if (!result) played.push(spec);
            else {
              await journal.append(result);
              progress?.tick(++done, specs.length, `round ${round} ${name}`);
            }
          }
          if (played.length < pending.length) progress?.phase(`${pending.length - played.length} games reused from earlier runs; ${played.length} to play`);
          pending = played;
        }
        if (config.queue) {
          await executeQueued(pending, {
            url: config.queue,
            run: await runIdentity(runDir),
            strategies: new Map(rounds.flat().map((r) => [r.id, forfeitOf(r) ? { forfeit: forfeitOf(r)! } : { dir: r.dir }])),
            startTimeoutMs: config.startTimeoutMs,
            onReplay,
            signal,
            graceMs: options.queueGraceMs,
            report: (message) => progress?.phase(message),
          });
        } else {
          let fleet = fleets.get(name);
          if (!fleet) {
            const server = await hosts.get(track.game, track.variant);
            fleet = new BotFleet({
              sandbox,
              health: adapterFor(track.game).health,
              logDir: path.join(runDir, 'bot-logs', name),
              startTimeoutMs: config.startTimeoutMs,
              ...server.botAccess(),
            });
            fleets.set(name, fleet);
          }
          fleet.add(records.map((r) => ({ id: r.id, dir: r.dir, forfeit: forfeitOf(r) })));
          await executeLocal(pending, { fleet, hosts, concurrency: config.concurrency, signal, onReplay });
        }
        progress?.done();
        checkSignal();

        // 3. The round's logs, for the next round's agents.
        const replays = await Promise.all(specs.map(async (s) => JSON.parse(await fs.readFile(path.join(runDir, 'replays', `${matchId(s)}.json`), 'utf8')) as Replay));
        await writeRoundLogs(path.join(dir, 'logs'), {
          game: track.game,
          variant: track.variant,
          round,
          policy: config.policy,
          strategies: rounds.flat(),
          results: replays.map((r) => r.result),
          replays,
        });
      }
    }
  } catch (err) {
    if (err instanceof QueueUnavailableError || err instanceof MatchJobFailedError) {
      throw new Error(`${err.message}. Every finished game is in the journal; resume with: catarena resume ${runDir}`, { cause: err });
    }
    throw err;
  } finally {
    progress?.done();
    await Promise.all([...fleets.values()].map((f) => f.stopAll()));
    await hosts.closeAll();
    await sandbox.close();
  }
  progress?.phase('computing W, metrics with bootstrap intervals, and reports');
  const summary = await summarizeRun(runDir);
  // From the journal, so a resumed run counts the games reused before it was interrupted too.
  const reused = journal.results().filter((r) => r.reusedFrom).length;
  await indexRun(indexEntry(summary, { schedule: options.schedule, reused, games: config.games, rounds: config.rounds }), config.queue);
  return summary;
}
