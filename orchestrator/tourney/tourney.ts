// The iterative tournament (CATArena's protocol): for each round, every agent develops a
// strategy per game and rule set, strategies are validated, round-n strategies play the round-n
// field and every earlier strategy (so W is complete at the end without replaying anything),
// and the round's logs are written for the next round's agents. A killed run resumes: developed
// strategies and journaled games are kept.
//
// Tracks overlap: a track's games are handed to the executor in round and track order, each as
// soon as the previous track's games have all started, so the next track fills the cores the last
// games of one leave idle; what follows a track's games (its round logs, its next round's
// development, more repetitions, its reports) runs beside the other tracks' games.
import { channelOfBotDir, TapeRecorder } from '../../util/exchange-tape/tape.ts';
import type { TapeReplayer } from '../../util/exchange-tape/replayer.ts';
import type { ExchangeTapFor } from '../../sandbox/types.ts';
import type { Agent } from '../../agents/core/types.ts';
import { deriveSeed } from '../../util/rng.ts';
import { matchId, type MatchSpec } from '../../records/match.ts';
import { trackName, type StrategyRecord, type TourneySummary, type TrackId } from '../../records/tourney.ts';
import { writeRoundLogs, type RoundLogsInput } from '../../reports/round-logs.ts';
import { sandboxForBots } from '../config/sandbox-choice.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import { gameSettings, llmPlayerSettings, tracksOf, type TourneyConfig } from '../config/tourney-config.ts';
import { createExecutor, type Executor } from '../executor/executor.ts';
import type { GamePool } from '../executor/local.ts';
import { priceOf } from '../../agents/core/prices.ts';
import { runModelTable, type ModelTable } from '../../agents/core/models.ts';
import { RunBudget, type BudgetLease } from '../../agents/core/run-budget.ts';
import { checkBudgetPrices } from './budget-prices.ts';
import { checkBudgetPerAgent } from '../config/budget-per-agent.ts';
import { MatchJobFailedError } from '../executor/queued.ts';
import { GameServerPool } from '../game-server/game-servers.ts';
import type { Progress } from '../progress.ts';
import { QueueUnavailableError } from '../queue/connection.ts';
import { ReuseCache, codeOf } from '../run/reuse.ts';
import { loadStrategyRecord, RunDir } from '../run/run-dir.ts';
import type { Journal } from '../run/journal.ts';
import { indexEntry, indexRun, rulesOfConfig } from '../run/run-index.ts';
import { completeProvenance, recordProvenance } from '../run/provenance.ts';
import { sealEntry } from '../run/index-seal.ts';
import { integrityLine } from '../../records/journal-integrity.ts';
import { carryOverStrategy, checkAgentTracks, createDeveloper, createRunAgents, type Developer } from './develop.ts';
import { taskTrackOf } from '../../records/task-track.ts';
import { limitConcurrency } from '../../util/limit.ts';
import { playAutoReps, roundSpecs } from './track-schedule.ts';
import { summarizeRun, summarizeTrack, writeTrackViews, type TrackReport } from './summarize.ts';
import type { BootstrapDraws } from '../../reports/metrics/bootstrap.ts';
import { llmPlayerUse } from '../../reports/llm-player-use.ts';
import { rm } from 'node:fs/promises';
import { agentKindOf, modelOfKind } from '../../agents/kinds.ts';

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
  /** Game slots shared with other tourneys of this process (the repeats of a study). */
  pool?: GamePool;
  /** Resume from a journal whose chain breaks (`--accept-tampered`); the reports say so at the top. Default: refused. */
  acceptTampered?: boolean;
  /** Record every model exchange in recordings/ (default true; `--no-record` turns it off). */
  record?: boolean;
  /** Answer the agents' model requests from another run's recording instead (catarena rerun: orchestrator/tourney/rerun.ts). */
  replay?: TapeReplayer;
}

/** What answers (or records) a channel's model exchanges. */
type Tape = Pick<TapeRecorder, 'tap'>;

/** A channel no run folder names: a replay answers nothing there (it never reaches the network). */
const UNKNOWN_CHANNEL = { agent: '(unknown bot folder)', track: '', round: 0 };

/** The sandbox's tap for a bot folder: its strategy's channel (tape.ts channelOfBotDir). */
function botTaps(runRoot: string, tape: Tape, replaying: boolean): ExchangeTapFor {
  return (dir) => {
    const channel = channelOfBotDir(runRoot, dir);
    return channel ? tape.tap(channel) : replaying ? tape.tap(UNKNOWN_CHANNEL) : undefined;
  };
}

export class InterruptedError extends Error {
  constructor(readonly runDir: string) {
    super(`interrupted; nothing finished is lost. Resume with: catarena resume ${runDir}`);
  }
}

export { tracksOf };

/** Why a strategy plays as a forfeiting stand-in (it failed its build or validation), or undefined. */
const forfeitOf = (r: StrategyRecord) => (r.status === 'failed' ? `failed build: ${r.failure}` : undefined);

/**
 * What a run checks of its agents before it starts, and `catarena schedule` when it registers a
 * night: every spec names an agent, agentTracks names only the run's agents, and a budget can
 * price every model. Returns the run's agents (created from the config unless given).
 */
export function checkRunAgents(config: TourneyConfig, given?: Agent[]): Agent[] {
  const agents = given ?? createRunAgents(config);
  checkAgentTracks(config, agents);
  checkBudgetPrices(config, agents);
  checkBudgetPerAgent(config);
  return agents;
}

export async function runTourney(options: TourneyOptions): Promise<TourneySummary> {
  const tourney = await Tourney.open(options);
  await tourney.playAll();
  return tourney.finish();
}

/** One run: it owns the agents, the sandbox, the game servers and the executor from open to close. */
class Tourney {
  private readonly tracks: TrackId[];
  /** Per track: its strategy records per round (index round − 1). */
  private readonly history = new Map<string, StrategyRecord[][]>();
  /** "track#round" → its strategies, developed or being developed. */
  private readonly developed = new Map<string, Promise<StrategyRecord[]>>();
  private readonly developing: ReturnType<typeof limitConcurrency>;
  /** What runs beside the next tracks' games: round logs, more repetitions, a track's reports. */
  private readonly behind: Array<Promise<unknown>> = [];
  /** Per track: its reports (W, metrics, evolution), written as it finishes. */
  private readonly reports = new Map<string, Promise<TrackReport | null>>();
  /** Aborted on the user's signal or when work running behind fails: no more games start. */
  private readonly stop = new AbortController();
  private failure: { error: unknown } | undefined;
  /** The run's budget (--budget-usd): a hard cap on development's model requests, play counted as it is logged. */
  private readonly budget: RunBudget | undefined;
  /** The LLM-players' play dollars already counted into the budget. */
  private playCountedUsd = 0;
  private budgetSaid: string | undefined;
  /** The run's model table: its config's `models:` over the shipped one (prices, the budget). */
  private readonly table: ModelTable;
  /** Records the agents' model exchanges (or, in a rerun, answers them from the recording). */
  private tape: Tape | undefined;

  private constructor(
    private readonly options: TourneyOptions,
    private readonly run: RunDir,
    private readonly progress: Progress | undefined,
    private readonly agents: Agent[],
    private readonly sandbox: Sandbox,
    private readonly hosts: GameServerPool,
    private readonly executor: Executor,
    private readonly developer: Developer,
    private readonly journal: Journal,
    private readonly reuse: ReuseCache | null,
  ) {
    this.tracks = tracksOf(this.config);
    this.table = runModelTable(this.config.models);
    this.developing = limitConcurrency(developer.concurrency ?? this.config.developConcurrency);
    if (this.config.budgetUsd !== undefined)
      this.budget = new RunBudget(this.config.budgetUsd, this.config.prices, this.table);
    for (const track of this.tracks) this.history.set(trackName(track), []);
    options.signal?.addEventListener('abort', () => this.stop.abort(), { once: true });
    if (options.signal?.aborted) this.stop.abort();
  }

  static async open(options: TourneyOptions): Promise<Tourney> {
    const { config } = options;
    const run = new RunDir(options.runDir, { journal: { acceptTampered: options.acceptTampered } });
    const progress = run.teeProgress(options.progress); // progress lines also go to live.jsonl (catarena serve)
    // Where bubblewrap is missing, `process` runs catarena's own bots unsandboxed (with a warning)
    // and refuses the others here, before anything is spent.
    const tape: Tape | undefined =
      options.replay ?? (options.record === false ? undefined : new TapeRecorder(run.root));
    const sandbox = sandboxForBots(
      config.sandbox,
      { authors: options.agents?.map((a) => a.kind) ?? config.agents },
      {
        docker: config.docker,
        ...(progress ? { warn: (line: string) => progress.phase(line) } : {}),
        ...(tape ? { exchanges: botTaps(run.root, tape, Boolean(options.replay)) } : {}),
      },
    );
    const strays = sandbox.reapStrays(run.root); // bots a killed run left running here (a resume finds them)
    if (strays) progress?.phase(`stopped ${strays} bot processes a killed run left running`);
    const hosts = new GameServerPool();
    let marked = false;
    try {
      // The agents' specs and what depends on them first: a bad spec fails before the run is marked running.
      const agents: Agent[] = checkRunAgents(config, options.agents);
      const executor = await createExecutor(config, run, {
        sandbox,
        hosts,
        graceMs: options.queueGraceMs,
        report: (message) => progress?.phase(message),
        pool: options.pool,
      });
      await run.pinRules(rulesOfConfig(config, config.games));
      await run.writeConfig(config);
      await recordProvenance(run.root, config);
      await run.markStatus('running', 'tourney');
      marked = true;
      const developer = await createDeveloper({
        config,
        agents,
        fromConfig: !options.agents,
        run,
        report: (message) => progress?.phase(message),
        graceMs: options.queueGraceMs,
      });
      const journal = await run.openJournal();
      const reuse = config.reuse ? await ReuseCache.open(run) : null;
      if (reuse) progress?.phase(`--reuse: ${reuse.size} earlier results from ${reuse.runs} indexed runs`);
      const tourney = new Tourney(options, run, progress, agents, sandbox, hosts, executor, developer, journal, reuse);
      tourney.tape = tape;
      return tourney;
    } catch (err) {
      await hosts.closeAll();
      await sandbox.close();
      // A run that failed while opening is not left "running" (serve and history would call it killed).
      if (marked) await run.markStatus('failed', 'tourney', (err as Error).message).catch(() => {});
      throw err;
    }
  }

  private get config(): TourneyConfig {
    return this.options.config;
  }

  /** Every round of every track: developed, entered, played, logged, and each track reported as it finishes. */
  async playAll(): Promise<void> {
    const { config, tracks } = this;
    try {
      for (let round = 1; round <= config.rounds; round++) {
        this.progress?.phase(
          `round ${round}/${config.rounds} · ${this.agents.length} agents developing ${tracks.length} track${tracks.length > 1 ? 's' : ''}`,
        );
        for (const track of tracks) void this.develop(track, round);
        const entered = new Map<TrackId, Promise<MatchSpec[]>>();
        const enter = (track: TrackId) => {
          if (!entered.has(track)) entered.set(track, this.enter(track, round));
          return entered.get(track)!;
        };
        for (const [t, track] of tracks.entries()) {
          this.checkSignal();
          const specs = await enter(track);
          // The next track enters while this one plays, so its bots start then.
          const following = tracks[t + 1];
          if (following && this.executor.prepare)
            enter(following).then(
              (next) => this.executor.prepare!(next.filter((s) => !this.journal.has(matchId(s)))),
              () => {},
            );
          const played = this.play(
            track,
            specs,
            `round ${round}/${config.rounds} · ${trackName(track)}`,
            `round ${round} ${trackName(track)}`,
          );
          await played.started;
          this.behind.push(this.afterRound(track, round, specs, played.done).catch((error) => this.fail(error)));
        }
      }
      await Promise.all(this.behind);
      this.checkSignal();
      if (config.anchors) await this.rateOnAnchors();
      this.checkSignal();
    } catch (err) {
      this.fail(err); // what runs behind stops too
      await this.run.markStatus(
        err instanceof InterruptedError ? 'interrupted' : 'failed',
        'tourney',
        (err as Error).message,
      );
      if (err instanceof QueueUnavailableError || err instanceof MatchJobFailedError) {
        throw new Error(
          `${err.message}. Every finished game is in the journal; resume with: catarena resume ${this.run.root}`,
          { cause: err },
        );
      }
      throw err;
    } finally {
      this.progress?.done();
      this.stop.abort(); // nothing more starts; what runs behind sees it
      // Round logs are written and a strategy being developed is kept (a resume reloads it) before its sandbox closes.
      await Promise.allSettled([...this.behind, ...this.developed.values()]);
      await this.executor.close();
      await this.developer.close();
      await this.hosts.closeAll();
      await this.sandbox.close();
    }
  }

  /** --anchors: every strategy that played, rated on its game's anchor pool (before the sandbox closes). */
  private async rateOnAnchors(): Promise<void> {
    const { rateStrategies } = await import('./anchored-strategies.ts');
    await rateStrategies({
      root: this.run.root,
      config: this.config,
      tracks: this.tracks.map((t) => ({ name: trackName(t), ...t, rounds: this.history.get(trackName(t)) ?? [] })),
      sandbox: this.sandbox,
      ...(this.progress ? { progress: this.progress } : {}),
      signal: this.stop.signal,
    });
  }

  /** The cross-track reports (leaderboard, report.md and .html) from the tracks' reports, and the run index. */
  async finish(): Promise<TourneySummary> {
    const { run, config, options } = this;
    this.progress?.phase('reports: leaderboard, report.md and report.html');
    await completeProvenance(run.root);
    const summary = await summarizeRun(run.root, { tracks: this.reports, journal: this.journal });
    await run.linkFinishedFiles(); // one copy of each workspace and log file (store/): no agent develops here any more
    // From the journal, so a resumed run counts the games reused before it was interrupted too.
    const reused = this.journal.results().filter((r) => r.reusedFrom).length;
    if (summary.journal?.state === 'tampered') this.progress?.phase(`! ${integrityLine(summary.journal)}`);
    if (options.index !== false)
      await indexRun(
        await sealEntry(
          {
            ...indexEntry(summary, { schedule: options.schedule, reused, games: config.games, rounds: config.rounds }),
            // each pair's compare, for the history page (the tracks' bootstrap draws are not drawn again)
            pairwise: await (await import('./combine.ts')).pairwiseOfRun(
              run.root,
              this.journal,
              await this.drawsByTrack(),
            ),
          },
          this.journal,
        ),
        config.queue,
      ); // sealed: the journal's end and the entry under the run's key
    await run.markStatus('finished', 'tourney');
    return summary;
  }

  /** The bootstrap draws of the tracks reported, by track name. */
  private async drawsByTrack(): Promise<Map<string, BootstrapDraws>> {
    const out = new Map<string, BootstrapDraws>();
    for (const [name, report] of this.reports) {
      const r = await report.catch(() => null);
      if (r) out.set(name, r.draws.draws);
    }
    return out;
  }

  /** Throws when the user interrupted the run or work running behind failed. */
  private checkSignal(): void {
    if (this.failure) throw this.failure.error;
    if (this.options.signal?.aborted) throw new InterruptedError(this.run.root);
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.stop.abort();
  }

  /**
   * A track enters the round when its strategies are developed: they join its history and the
   * executor, and its games are scheduled (round-n strategies against each other and every
   * earlier strategy).
   */
  private async enter(track: TrackId, round: number): Promise<MatchSpec[]> {
    const records = await this.develop(track, round);
    const rounds = this.history.get(trackName(track))!;
    rounds.push(records);
    for (const r of records.filter((s) => s.status === 'failed'))
      this.progress?.phase(`! ${r.id} failed to build (${r.failure}); it plays as a forfeiting stand-in`);
    this.executor.add(
      track,
      records.map((r) => ({ id: r.id, dir: r.dir, forfeit: forfeitOf(r) })),
    );
    return roundSpecs(this.config, track, rounds, round);
  }

  /**
   * Plays the specs not yet in the journal (or reused from an earlier run), with progress.
   * `started` resolves once none of them waits for a slot (the next track may fill the rest).
   */
  private play(
    track: TrackId,
    specs: MatchSpec[],
    title: string,
    tickLabel: string,
  ): { started: Promise<void>; done: Promise<void> } {
    let started!: () => void;
    const whenStarted = new Promise<void>((resolve) => (started = resolve));
    const done = (async () => {
      let pending = specs.filter((s) => !this.journal.has(matchId(s)));
      let count = specs.length - pending.length;
      this.progress?.phase(`${title} · ${specs.length} games${count ? ` (${count} already played)` : ''}`);
      const tick = () => this.progress?.tick(++count, specs.length, tickLabel);
      if (this.reuse) {
        const code = new Map(
          this.history
            .get(trackName(track))!
            .flat()
            .map((r) => [r.id, codeOf(r)]),
        );
        const played: MatchSpec[] = [];
        for (const spec of pending) {
          if (await this.reuse.take(spec, (id) => code.get(id), this.config.sandbox, this.run)) tick();
          else played.push(spec);
        }
        if (played.length < pending.length)
          this.progress?.phase(
            `${pending.length - played.length} games reused from earlier runs; ${played.length} to play`,
          );
        pending = played;
      }
      await this.executor.run(pending, {
        signal: this.stop.signal,
        onStarted: started,
        onReplay: async (replay) => {
          await this.run.recordGame(replay);
          tick();
        },
      });
      this.progress?.done();
      this.checkSignal();
    })().finally(started);
    done.catch(() => {}); // awaited by the caller, which may first wait for `started`
    return { started: whenStarted, done };
  }

  /**
   * After a track's round is played: its round logs (the next round's agents read them), then its
   * next round's development; after the last round, more repetitions (reps 'auto') and its reports.
   */
  private async afterRound(track: TrackId, round: number, specs: MatchSpec[], played: Promise<void>): Promise<void> {
    const { config, run } = this;
    const name = trackName(track);
    const rounds = this.history.get(name)!.slice(0, round);
    const logs = played.then(async () => {
      const input = (): RoundLogsInput => ({
        game: track.game,
        variant: track.variant,
        round,
        policy: config.policy,
        strategies: rounds.flat(),
        results: specs.map((s) => {
          const result = this.journal.get(matchId(s));
          if (!result) throw new Error(`${matchId(s)} of ${name} round ${round} is not in the journal`);
          return result;
        }),
        // Read one at a time by the writers: a round's replays never sit in memory together.
        replay: (result) => run.readReplay(result.id),
      });
      // A resumed run's logs, written before it stopped, are kept.
      if (!(await run.roundLogsWritten(track, round))) await writeRoundLogs(run.logsDir(track, round), input());
      if (config.opponentCode === 'hidden' && round < config.rounds) await this.writeOwnLogs(track, round, input);
    });
    // The round's viewer data while the rules' caches still hold its games (the track's report keeps it).
    const views = logs.then(() => this.writeRoundViews(track, rounds));
    views.catch(() => {}); // awaited below; the next round's development does not wait for it
    if (round < config.rounds) {
      // Known now, so the next round's loop waits for it rather than developing without these logs.
      const next = logs.then(() => this.developAgents(track, round + 1));
      next.catch(() => {}); // awaited when the track enters its next round
      this.developed.set(`${name}#${round + 1}`, next);
      await Promise.all([logs, views]);
      return;
    }
    await Promise.all([logs, views]);
    await playAutoReps({
      config,
      track,
      rounds,
      journal: this.journal,
      play: async (more, label) => {
        await this.play(track, more, label, `${name} more`).done;
      },
      report: async (entry) => {
        await run.writeAutoReps(track, entry);
        const last = entry.batches.at(-1);
        if (entry.stopped)
          this.progress?.phase(
            `${name} · more repetitions stopped after ${entry.games} games: ${entry.stopped.detail}`,
          );
        else if (last)
          this.progress?.phase(
            `${name} · more repetitions, batch ${last.batch}: ${last.units.length} units, ${last.games} games (${entry.games} so far)`,
          );
      },
    });
    this.checkSignal();
    const report = summarizeTrack(run, config, this.journal, track);
    this.reports.set(name, report);
    await report;
    this.progress?.phase(`${name} finished: W, metrics and evolution written`);
    await run.linkTrackFiles(name); // while other tracks play: the run's end then only looks them over
  }

  /** The viewer data of a track's games of these rounds, in the track's bundles (summarize.ts writeTrackViews). */
  private async writeRoundViews(track: TrackId, rounds: StrategyRecord[][]): Promise<void> {
    const byId = new Map(rounds.flat().map((s) => [s.id, s]));
    const results = this.journal
      .results()
      .filter(
        (r) =>
          r.spec.game === track.game && r.spec.variant === track.variant && r.spec.seats.every((id) => byId.has(id)),
      )
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await writeTrackViews(this.run, trackName(track), results, byId);
  }

  /**
   * opponentCode hidden: each agent's round n+1 workspace gets round n's logs of its own games
   * only (the games one of its strategies played), written by the same writers as the round's logs.
   */
  private async writeOwnLogs(track: TrackId, round: number, input: () => RoundLogsInput): Promise<void> {
    for (const agent of this.agents) {
      if (await this.run.roundLogsWritten(track, round, agent.id)) continue;
      const all = input();
      const own = new Set(all.strategies.filter((s) => s.agent === agent.id).map((s) => s.id));
      const results = all.results.filter((r) => r.spec.seats.some((id) => own.has(id)));
      const dir = this.run.ownLogsDir(track, round, agent.id);
      await rm(dir, { recursive: true, force: true }); // a run killed while writing them: no stale files beside the new ones
      await writeRoundLogs(dir, { ...all, results });
    }
  }

  /** A track's strategies for a round: developing since its previous round's logs, or started now. */
  private develop(track: TrackId, round: number): Promise<StrategyRecord[]> {
    const key = `${trackName(track)}#${round}`;
    let records = this.developed.get(key);
    if (!records) {
      records = this.developAgents(track, round);
      this.developed.set(key, records);
    }
    records.catch(() => {}); // awaited in order; a failure must not go unhandled meanwhile
    return records;
  }

  /** Agents develop side by side (config developConcurrency). */
  private developAgents(track: TrackId, round: number): Promise<StrategyRecord[]> {
    return Promise.all(this.agents.map((agent) => this.developing(() => this.developOne(agent, track, round))));
  }

  /** Develops (or reloads what an interrupted run developed) one agent's strategy for a track and round. */
  private async developOne(agent: Agent, track: TrackId, round: number): Promise<StrategyRecord> {
    this.checkSignal();
    const { config, run } = this;
    const name = trackName(track);
    const existing = await loadStrategyRecord(run.strategyDir(track, round, agent.id));
    if (existing) return this.countSpent(existing);
    // The run's budget (--budget-usd): a development reserves its worst case before it starts
    // (waiting while others hold the rest), and none starts once the spend (development, and
    // LLM-players' play so far) reached the cap. Agents whose development calls no model
    // (offline, dir, the LLM-player's copy) go on.
    let lease: BudgetLease | undefined;
    const metered = agentKindOf(agent.kind)?.developmentCallsModel ?? false;
    const label = `${agent.id}@${round} ${name}`;
    if (this.budget && metered) {
      await this.countPlaySpent();
      const price = priceOf(modelOfKind(agent.kind), config.prices, this.table);
      const worst = price ? agent.worstCaseUsd?.(price) : undefined;
      lease = (await this.budget.reserve(label, worst)) ?? undefined;
      if (!lease) {
        const why = this.budget.reachedText();
        if (!this.budgetSaid)
          this.progress?.phase(
            `! ${(this.budgetSaid = why)}: no new development; agents keep their last bot for the remaining rounds`,
          );
        return carryOverStrategy(
          { agent, track, round, run },
          round > 1 ? this.history.get(name)![round - 2]?.find((r) => r.agent === agent.id) : undefined,
          why,
        );
      }
    }
    const own = metered ? await this.agentBudgetLease(agent, label, lease) : undefined;
    try {
      const record = await this.developWithin(agent, track, round, own ?? lease);
      if (record.budgetStopped) this.progress?.phase(`! ${record.id} (${name}) stopped: ${record.budgetStopped}`);
      return lease ? this.settle(record, lease) : this.countSpent(record);
    } finally {
      // What it reserved and did not spend goes back; its own figure counts (Claude Code's reported cost) where it gave one.
      own?.close();
      lease?.close();
    }
  }

  /**
   * --budget-per-agent in dollars or tokens: this development's own cap, chained to the run's
   * lease (a request must fit under both). Wall time needs none: it shortens the deadline.
   */
  private async agentBudgetLease(
    agent: Agent,
    label: string,
    runLease: BudgetLease | undefined,
  ): Promise<BudgetLease | undefined> {
    const b = this.config.budgetPerAgent;
    if (!b || (b.usd === undefined && b.tokens === undefined)) return undefined;
    const kind = {
      unit: b.tokens !== undefined ? ('tokens' as const) : ('usd' as const),
      name: `${agent.id}'s budget per development (--budget-per-agent)`,
    };
    const cap = b.tokens !== undefined ? b.tokens / 1e6 : b.usd!;
    const budget = new RunBudget(cap, this.config.prices, this.table, kind);
    return (await budget.reserve(label, undefined))?.within(runLease);
  }

  /** Develops one strategy through the developer (local, or on a queue's worker). */
  private async developWithin(
    agent: Agent,
    track: TrackId,
    round: number,
    spend: BudgetLease | undefined,
  ): Promise<StrategyRecord> {
    const { config, run } = this;
    const name = trackName(track);
    const rounds = this.history.get(name)!;
    const previous =
      round > 1
        ? {
            bots: rounds[round - 2]!.map((r) => ({ agent: r.agent, dir: r.dir })),
            logsDir:
              config.opponentCode === 'hidden'
                ? run.ownLogsDir(track, round - 1, agent.id)
                : run.logsDir(track, round - 1),
          }
        : undefined;
    return this.developer.develop({
      agent,
      track,
      round,
      run,
      previous,
      seed: deriveSeed(config.seed, agent.id, name, round),
      // An LLM-player's bot thinks on its own deadline (config llmPlayer), told in its game.json.
      moveTimeoutMs: agentKindOf(agent.kind)?.ownPlaySettings
        ? llmPlayerSettings(config, track.game).moveTimeoutMs
        : gameSettings(config, track.game).moveTimeoutMs,
      developTimeoutMs: Math.min(config.developTimeoutMs, config.budgetPerAgent?.wallMs ?? Infinity),
      startTimeoutMs: config.startTimeoutMs,
      strictValidation: config.strictValidation,
      taskTrack: taskTrackOf(config, agent.id),
      opponentCode: config.opponentCode,
      sandbox: this.sandbox,
      hosts: this.hosts,
      // The bot that passed validation goes to the executor (one start per strategy, not two).
      keepBot: this.executor.adoption(track),
      price: priceOf(modelOfKind(agent.kind), config.prices, this.table),
      ...(spend ? { spend } : {}),
      ...(this.tape ? { exchanges: this.tape.tap({ agent: agent.id, track: name, round }) } : {}),
    });
  }

  /** Estimated dollars the LLM-players' bots have spent playing so far (their decision lines in the bot logs). */
  private async playSpentUsd(): Promise<number> {
    let usd = 0;
    for (const [name, rounds] of this.history) {
      const use = await llmPlayerUse(this.run.botLogsDir(name), rounds.flat(), this.config.prices, this.table);
      for (const u of Object.values(use)) for (const p of Object.values(u.play ?? {})) usd += p.costUsd ?? 0;
    }
    return usd;
  }

  /** Counts the LLM-players' play dollars logged since the last count into the budget. */
  private async countPlaySpent(): Promise<void> {
    const usd = await this.playSpentUsd();
    if (usd > this.playCountedUsd) this.budget?.addSettled(usd - this.playCountedUsd);
    this.playCountedUsd = Math.max(usd, this.playCountedUsd);
  }

  /** A strategy developed before this process (a resume): its dollars count as spent. */
  private countSpent(record: StrategyRecord): StrategyRecord {
    this.budget?.addSettled(record.cost.costUsd ?? 0);
    return record;
  }

  /**
   * A development under a budget lease: its record's figure (the agent's own where it reported one,
   * else the estimate) replaces what its requests were charged when that is more; a development
   * on a queue's worker, which nothing metered, counts its record's figure.
   */
  private settle(record: StrategyRecord, lease: BudgetLease): StrategyRecord {
    const figure = record.cost.costUsd ?? 0;
    const reported = record.cost.reportedCostUsd !== undefined;
    const extra = reported ? figure - lease.chargedUsd : Math.max(0, figure - lease.chargedUsd);
    lease.chargedUsd += extra;
    return record;
  }
}
