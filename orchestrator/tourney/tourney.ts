// The iterative tournament (CATArena's protocol): for each round, every agent develops a
// strategy per game and rule set, strategies are validated, round-n strategies play the round-n
// field and every earlier strategy (so W is complete at the end without replaying anything),
// and the round's logs are written for the next round's agents. A killed run resumes: developed
// strategies and journaled games are kept.
import type { Agent } from '../../agents/core/types.ts';
import { deriveSeed } from '../../games/core/rng.ts';
import { gameDescriptor } from '../../games/registry.ts';
import { DEFAULT_LIMITS, matchId, type MatchSpec, type Replay } from '../../model/match.ts';
import { trackName, type StrategyRecord, type TourneySummary, type TrackId } from '../../model/tourney.ts';
import { writeRoundLogs } from '../../reports/round-logs.ts';
import { createSandbox } from '../../sandbox/index.ts';
import { killProcessesIn } from '../../sandbox/process.ts';
import { gameSettings, llmPlayerSettings, tracksOf, type TourneyConfig } from '../config/tourney-config.ts';
import { LocalExecutor, QueuedExecutor, type Executor } from '../executor/executor.ts';
import { botLogFile, stopBot } from '../executor/bot-fleet.ts';
import { modelOfKind, priceOf } from '../../agents/core/prices.ts';
import type { BotHandle } from '../../sandbox/types.ts';
import { MatchJobFailedError } from '../executor/queued.ts';
import { GameServerPool } from '../host/game-servers.ts';
import type { Progress } from '../progress.ts';
import { connectQueue, QueueUnavailableError } from '../queue/connection.ts';
import { ReuseCache, codeOf } from '../run/reuse.ts';
import { loadStrategyRecord, RunDir } from '../run/run-dir.ts';
import { indexEntry, indexRun, rulesOfConfig } from '../run/run-index.ts';
import { carryOverStrategy, checkAgentTracks, createDeveloper, createRunAgents } from './develop.ts';
import { taskTrackOf } from '../../model/task-track.ts';
import { limitConcurrency } from '../../util/limit.ts';
import { playAutoReps, roundSpecs } from './schedule.ts';
import { summarizeRun } from './summarize.ts';

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
  /** Append the finished run to the run index (default true; a repeat of a --repeats run is indexed as part of its parent). */
  index?: boolean;
}

export class InterruptedError extends Error {
  constructor(readonly runDir: string) {
    super(`interrupted; nothing finished is lost. Resume with: catarena resume ${runDir}`);
  }
}

export { tracksOf };

/** Why a strategy plays as a forfeiting stand-in (it failed its build or validation), or undefined. */
const forfeitOf = (r: StrategyRecord) => (r.status === 'failed' ? `failed build: ${r.failure}` : undefined);

export async function runTourney(options: TourneyOptions): Promise<TourneySummary> {
  const strays = killProcessesIn(options.runDir); // bots a killed run left running here (a resume finds them)
  if (strays.length) options.progress?.phase(`stopped ${strays.length} bot processes a killed run left running`);
  const { config, signal } = options;
  const run = new RunDir(options.runDir);
  const progress = run.teeProgress(options.progress); // progress lines also go to live.jsonl (catarena serve)
  const runDir = run.root;
  // A queue that cannot be reached should fail now, not after the agents spent their budget.
  if (config.queue) (await connectQueue(config.queue, { warn: (m) => progress?.phase(`! ${m}`) })).disconnect();
  await run.pinRules(rulesOfConfig(config, config.games));
  await run.writeConfig(config);
  await run.markStatus('running', 'tourney');
  const agents: Agent[] = options.agents ?? createRunAgents(config);
  checkAgentTracks(config, agents);
  const sandbox = createSandbox(config.sandbox, { docker: config.docker });
  const hosts = new GameServerPool();
  const journal = await run.openJournal();
  const tracks = tracksOf(config);
  const executor: Executor = config.queue
    ? new QueuedExecutor({ url: config.queue, run: await run.identity(), startTimeoutMs: config.startTimeoutMs, graceMs: options.queueGraceMs, report: (message) => progress?.phase(message) })
    : new LocalExecutor({ sandbox, hosts, concurrency: config.concurrency, startTimeoutMs: config.startTimeoutMs, logDir: (track) => run.botLogsDir(track), onLive: run.appendLive });
  const developer = await createDeveloper({ config, agents, fromConfig: !options.agents, run, report: (message) => progress?.phase(message), graceMs: options.queueGraceMs });
  const history = new Map<string, StrategyRecord[][]>(); // track → records per round (index round−1)
  // "track|strategy id" → its validated bot, until the executor has it. Strategy ids (agent@round)
  // repeat in every track: the track is part of the key, or one game's bot plays another game.
  const warmBots = new Map<string, BotHandle>();
  const warmKey = (track: TrackId, id: string) => `${trackName(track)}|${id}`;
  const takeWarm = (track: TrackId, id: string) => {
    const bot = warmBots.get(warmKey(track, id));
    warmBots.delete(warmKey(track, id));
    return bot;
  };
  const reuse = config.reuse ? await ReuseCache.open(run) : null;
  if (reuse) progress?.phase(`--reuse: ${reuse.size} earlier results from ${reuse.runs} indexed runs`);
  const checkSignal = () => {
    if (signal?.aborted) throw new InterruptedError(runDir);
  };
  /** Plays the specs not yet in the journal (or reused from an earlier run), with progress. */
  const play = async (rounds: StrategyRecord[][], specs: MatchSpec[], title: string, tickLabel: string) => {
    let pending = specs.filter((s) => !journal.has(matchId(s)));
    let done = specs.length - pending.length;
    progress?.phase(`${title} · ${specs.length} games${done ? ` (${done} already played)` : ''}`);
    const tick = () => progress?.tick(++done, specs.length, tickLabel);
    if (reuse) {
      const code = new Map(rounds.flat().map((r) => [r.id, codeOf(r)]));
      const played: MatchSpec[] = [];
      for (const spec of pending) {
        if (await reuse.take(spec, (id) => code.get(id), config.sandbox, run)) tick();
        else played.push(spec);
      }
      if (played.length < pending.length) progress?.phase(`${pending.length - played.length} games reused from earlier runs; ${played.length} to play`);
      pending = played;
    }
    await executor.run(pending, {
      signal,
      onReplay: async (replay: Replay) => {
        await run.recordGame(replay);
        tick();
      },
    });
    progress?.done();
  };

  // Estimated dollars spent on development so far (strategy records' costUsd), for --budget-usd.
  let spentUsd = 0;
  let budgetSaid: string | undefined;
  const countSpent = (record: StrategyRecord): StrategyRecord => {
    spentUsd += record.cost.costUsd ?? 0;
    return record;
  };
  /** Develops (or reloads what an interrupted run developed) one agent's strategy for a track and round. */
  const develop = async (agent: Agent, track: TrackId, round: number): Promise<StrategyRecord> => {
    checkSignal();
    const name = trackName(track);
    const existing = await loadStrategyRecord(run.strategyDir(track, round, agent.id));
    if (existing) return countSpent(existing);
    // The run's budget (--budget-usd): once the estimated dollars reach it, no development starts.
    // Agents whose development calls no model (offline, dir, the LLM-player's copy) go on.
    if (config.budgetUsd !== undefined && spentUsd >= config.budgetUsd && /^(builtin|cli):/.test(agent.kind)) {
      const why = `the run's budget of $${config.budgetUsd.toFixed(2)} was reached ($${spentUsd.toFixed(2)} estimated)`;
      if (!budgetSaid) progress?.phase(`! ${(budgetSaid = why)}: no new development; agents keep their last bot for the remaining rounds`);
      return carryOverStrategy({ agent, track, round, run }, round > 1 ? history.get(name)![round - 2]?.find((r) => r.agent === agent.id) : undefined, why);
    }
    const rounds = history.get(name)!;
    const previous = round > 1 ? { bots: rounds[round - 2]!.map((r) => ({ agent: r.agent, dir: r.dir })), logsDir: run.logsDir(track, round - 1) } : undefined;
    return countSpent(await developer.develop({
      agent,
      track,
      round,
      run,
      previous,
      seed: deriveSeed(config.seed, agent.id, name, round),
      // An LLM-player's bot thinks on its own deadline (config llmPlayer), told in its game.json.
      moveTimeoutMs: agent.kind.startsWith('llm-player:') ? llmPlayerSettings(config, track.game).moveTimeoutMs : gameSettings(config, track.game).moveTimeoutMs,
      developTimeoutMs: config.developTimeoutMs,
      startTimeoutMs: config.startTimeoutMs,
      strictValidation: config.strictValidation,
      taskTrack: taskTrackOf(config, agent.id),
      sandbox,
      hosts,
      // In-process games play with the bot that passed validation (one start per strategy, not two).
      keepBot: config.queue ? undefined : { logFile: (id) => botLogFile(run.botLogsDir(track), id), take: (id, bot) => warmBots.set(warmKey(track, id), bot) },
      price: priceOf(modelOfKind(agent.kind), config.prices),
    }));
  };
  // Agents develop side by side, a round's later tracks develop while its first ones play, and a
  // track's next round develops as soon as its round is over: a track's strategies depend only on
  // its own previous round.
  const developing = limitConcurrency(developer.concurrency ?? config.developConcurrency);
  const developed = new Map<string, Promise<StrategyRecord[]>>(); // "track#round" → its strategies
  const startDevelopingNow = (track: TrackId, round: number) => Promise.all(agents.map((agent) => developing(() => develop(agent, track, round))));
  const startDeveloping = (track: TrackId, round: number): Promise<StrategyRecord[]> => {
    const key = `${trackName(track)}#${round}`;
    let records = developed.get(key);
    if (!records) {
      records = startDevelopingNow(track, round);
      developed.set(key, records);
    }
    records.catch(() => {}); // awaited in order below; a failure must not go unhandled meanwhile
    return records;
  };
  const roundLogs: Array<Promise<void>> = [];

  try {
    for (let round = 1; round <= config.rounds; round++) {
      for (const track of tracks) if (!history.has(trackName(track))) history.set(trackName(track), []);
      progress?.phase(`round ${round}/${config.rounds} · ${agents.length} agents developing ${tracks.length} track${tracks.length > 1 ? 's' : ''}`);
      for (const track of tracks) void startDeveloping(track, round);
      // A track enters the round when its strategies are developed: they join its history and
      // the executor, and its games are scheduled (round-n strategies against each other and
      // every earlier strategy). The next track enters while this one plays, so its bots start then.
      const entered = new Map<TrackId, Promise<MatchSpec[]>>();
      const enter = (track: TrackId): Promise<MatchSpec[]> => {
        let specs = entered.get(track);
        if (!specs) {
          specs = startDeveloping(track, round).then((records) => {
            const rounds = history.get(trackName(track))!;
            rounds.push(records);
            for (const r of records.filter((s) => s.status === 'failed')) progress?.phase(`! ${r.id} failed to build (${r.failure}); it plays as a forfeiting stand-in`);
            executor.add(track, records.map((r) => ({ id: r.id, dir: r.dir, forfeit: forfeitOf(r), warm: takeWarm(track, r.id) })));
            return roundSpecs(config, track, rounds, round);
          });
          specs.catch(() => {}); // awaited in order below
          entered.set(track, specs);
        }
        return specs;
      };
      for (const [t, track] of tracks.entries()) {
        checkSignal();
        const name = trackName(track);
        const specs = await enter(track);
        const rounds = history.get(name)!;
        const following = tracks[t + 1];
        if (following && executor.prepare) enter(following).then((next) => executor.prepare!(next.filter((s) => !journal.has(matchId(s)))), () => {});

        // 2. Play.
        await play(rounds, specs, `round ${round}/${config.rounds} · ${name}`, `round ${round} ${name}`);
        checkSignal();

        // 3. The round's logs, for the next round's agents, written while the next track plays;
        // then this track's next round develops (its agents read these logs).
        const strategies = rounds.flat();
        const logs = (async () => {
          const replays = await Promise.all(specs.map((s) => run.readReplay(matchId(s))));
          await writeRoundLogs(run.logsDir(track, round), { game: track.game, variant: track.variant, round, policy: config.policy, strategies, results: replays.map((r) => r.result), replays });
        })();
        logs.catch(() => {}); // surfaces below (the next round's develop, or the end of the run)
        roundLogs.push(logs);
        if (round < config.rounds) {
          const next = logs.then(() => startDevelopingNow(track, round + 1));
          next.catch(() => {});
          developed.set(`${name}#${round + 1}`, next);
        }

        // 4. With reps 'auto', after the last round: more repetitions where they matter.
        if (round === config.rounds) {
          await playAutoReps({
            config,
            track,
            rounds,
            journal,
            play: async (more, label) => {
              await play(rounds, more, label, `${name} more`);
              checkSignal();
            },
            report: async (entry) => {
              await run.writeAutoReps(track, entry);
              const last = entry.batches.at(-1);
              if (entry.stopped) progress?.phase(`${name} · more repetitions stopped after ${entry.games} games: ${entry.stopped.detail}`);
              else if (last) progress?.phase(`${name} · more repetitions, batch ${last.batch}: ${last.units.length} units, ${last.games} games (${entry.games} so far)`);
            },
          });
        }
      }
    }
    await Promise.all(roundLogs);
  } catch (err) {
    await run.markStatus(err instanceof InterruptedError ? 'interrupted' : 'failed', 'tourney', (err as Error).message);
    if (err instanceof QueueUnavailableError || err instanceof MatchJobFailedError) {
      throw new Error(`${err.message}. Every finished game is in the journal; resume with: catarena resume ${runDir}`, { cause: err });
    }
    throw err;
  } finally {
    progress?.done();
    await Promise.allSettled([...roundLogs, ...developed.values()]); // round logs are written and a strategy being developed is kept (a resume reloads it) before its sandbox closes
    await Promise.all([...warmBots.values()].map(stopBot));
    await executor.close();
    await developer.close();
    await hosts.closeAll();
    await sandbox.close();
  }
  progress?.phase('computing W, metrics with bootstrap intervals, and reports');
  const summary = await summarizeRun(runDir);
  // From the journal, so a resumed run counts the games reused before it was interrupted too.
  const reused = journal.results().filter((r) => r.reusedFrom).length;
  if (options.index !== false) await indexRun({ ...indexEntry(summary, { schedule: options.schedule, reused, games: config.games, rounds: config.rounds }), pairwise: await (await import('./combine.ts')).pairwiseOfRun(runDir) }, config.queue); // each pair's compare, for the history page
  await run.markStatus('finished', 'tourney');
  return summary;
}
