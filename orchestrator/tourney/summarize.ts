// Rebuilds everything a run reports from its files alone (config.json, journal.jsonl, strategy
// records, bot folders and workspaces): W per track, the paper's metrics with bootstrap intervals,
// ratings with intervals, error rates, cost, generalizability, the leaderboard, the strategy
// evolution (diffs, code similarity, what each agent looked at), and the JSON/CSV/Markdown/HTML
// outputs. `catarena report` and the end of `catarena tourney` both call this, so a report can
// always be regenerated.
import { recordingTotals } from '../../util/exchange-tape/tape.ts';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrapWithDraws, type BootstrapDraws } from '../../reports/metrics/bootstrap.ts';
import { ratings } from '../../reports/metrics/ratings.ts';
import { tableRatings } from '../../reports/metrics/table-ratings.ts';
import { crossGameRatings } from '../../reports/metrics/cross-game.ts';
import { computeAll, generalizability } from '../../reports/metrics/metrics.ts';
import { pairwiseGames, tableWinRates } from '../../reports/metrics/batch.ts';
import { roomComparisons } from '../../reports/metrics/duplicate.ts';
import { fromGames, type GameResult, type ScoreMatrix } from '../../reports/metrics/score-matrix.ts';
import { renderReportHtml, renderReportMarkdown, trackKey, type GameIndex } from '../../reports/sections/index.ts';
import { writeReplayPages } from '../../reports/html/replay-page.ts';
import { costByAgent, errorRates, leaderboard, withRankProbabilities } from '../../reports/summary.ts';
import { trackEvolution, type EvolutionTrack } from '../../reports/evolution/evolution.ts';
import { llmPlayerUse } from '../../reports/llm-player-use.ts';
import { integrityRows } from '../../reports/integrity.ts';
import { agentIdOf } from '../../agents/core/agent-id.ts';
import { runModelTable } from '../../agents/core/models.ts';
import { envFolderName } from '../../agents/core/workspace.ts';
import { referenceBotDir } from '../../util/paths.ts';
import { variantsOf, type TourneyConfig } from '../config/tourney-config.ts';
import { RunDir } from '../run/run-dir.ts';
import type { Journal } from '../run/journal.ts';
import type { JournalIntegrity } from '../../records/journal-integrity.ts';
import { JournalTamperedError } from '../run/journal-chain.ts';
import { checkIndexedRun } from '../run/index-seal.ts';
import { readIndexFile } from '../run/run-index.ts';
import { readProbeResults } from '../probe/probe-files.ts';
import { readProvenance } from '../run/provenance.ts';
import { readAnchored } from './anchored-strategies.ts';
import { matchId, type MatchResult } from '../../records/match.ts';
import { roundSpecs } from './track-schedule.ts';
import {
  trackName,
  type StrategyRecord,
  type TourneySummary,
  type TrackId,
  type TrackSummary,
} from '../../records/tourney.ts';
import { AGENT_KINDS } from '../../agents/kinds.ts';

/** One track's part of the reports: written (W, metrics, evolution, replay pages) as the track finishes. */
export interface TrackReport {
  summary: TrackSummary;
  W: ScoreMatrix;
  draws: { agents: string[]; draws: BootstrapDraws };
  index: GameIndex[string];
  evolution: EvolutionTrack;
  /** The pairwise games behind W (the cross-game rating fits them over every track). */
  games: GameResult[];
}

export interface SummarizeOptions {
  /** Tracks already reported (summarizeTrack while the run played), by track name; the others are computed here. */
  tracks?: Map<string, Promise<TrackReport | null>>;
  /** The run's journal, when the caller has it open (not read a second time). */
  journal?: Journal;
  /** Rebuild from a journal whose chain breaks (`--accept-tampered`); the reports say so at the top. */
  acceptTampered?: boolean;
}

export async function summarizeRun(runDir: string, options: SummarizeOptions = {}): Promise<TourneySummary> {
  const run = new RunDir(runDir, { journal: { acceptTampered: options.acceptTampered } });
  const config = await run.readConfig();
  const journal = options.journal ?? (await run.openJournal());
  const integrity = await journalIntegrity(run, journal, Boolean(options.journal), options.acceptTampered);
  const reports: TrackReport[] = [];
  for (const game of config.games) {
    for (const variant of variantsOf(config, game)) {
      const report = await (options.tracks?.get(trackName({ game, variant })) ??
        summarizeTrack(run, config, journal, { game, variant }));
      if (report) reports.push(report);
    }
  }
  const tracks = reports.map((r) => r.summary);
  const matrices = new Map(reports.map((r) => [trackName(r.summary), r.W]));
  const gameIndex: GameIndex = Object.fromEntries(reports.map((r) => [trackKey(trackName(r.summary)), r.index]));

  const generalizabilityByGame: TourneySummary['generalizability'] = {};
  for (const game of config.games) {
    const std = matrices.get(trackName({ game, variant: 'standard' }));
    const variant = matrices.get(trackName({ game, variant: 'variant' }));
    if (std && variant && std.agents.join() === variant.agents.join())
      generalizabilityByGame[game] = generalizability(std, variant);
  }

  const summary: TourneySummary = {
    runId: path.basename(run.root),
    runDir: run.root,
    createdAt: await run.createdAt(),
    finishedAt: new Date().toISOString(),
    config,
    tracks,
    generalizability: generalizabilityByGame,
    leaderboard: withRankProbabilities(
      leaderboard(tracks),
      reports.map((r) => r.draws),
    ),
    journal: integrity,
  };
  const crossGame = crossGameRatings(
    [...new Set(tracks.flatMap((t) => t.agents))],
    reports.map((r) => ({ track: trackName(r.summary), games: r.games })),
    { anchor: config.ratingAnchor ?? firstOfflineAgent(config), samples: config.bootstrapSamples, seed: config.seed },
  );
  if (crossGame) summary.crossGame = crossGame;
  const anchored = await readAnchored(run.root);
  if (anchored.length) summary.anchored = anchored;
  const recorded = recordingTotals(run.root);
  if (recorded.exchanges) summary.modelExchanges = recorded;
  // `catarena report` on a run that did not finish says so, with what its journal dropped.
  if (!options.journal) {
    const incomplete = await incompleteness(run, config, journal);
    if (incomplete) summary.incomplete = incomplete;
  }
  await writeOutputs(
    run,
    summary,
    gameIndex,
    reports.map((r) => r.evolution),
  );
  return summary;
}

/**
 * What the chain says of the results reported. The run's own journal (`playing`: the games are in
 * memory as played) is verified again on disk, so a line changed while the run played shows. A
 * finished run's journal is also held to the seal its run index entry carries, which sees lines
 * dropped from its end, and a key and chain removed together.
 */
async function journalIntegrity(
  run: RunDir,
  journal: Journal,
  playing: boolean,
  acceptTampered = false,
): Promise<JournalIntegrity> {
  if (playing) {
    if (journal.integrity.state === 'tampered') return journal.integrity; // resumed with --accept-tampered
    const onDisk = await journal.recheck();
    if (onDisk.state !== 'tampered') return journal.integrity;
    return {
      ...onDisk,
      note: 'changed while the run played: this report is from the games as played, but catarena report will refuse the file',
    };
  }
  if (journal.integrity.state === 'tampered') return journal.integrity; // accepted: said as it is
  // Also for an unchained journal: a sealed entry shows a key and chain removed to pass as an old run.
  const entry = (await readIndexFile(run.indexFile)).find((e) => path.resolve(e.runDir) === run.root);
  const sealed = entry && (await checkIndexedRun(entry));
  if (sealed?.integrity.state !== 'tampered') return journal.integrity;
  if (!acceptTampered) throw new JournalTamperedError(sealed.file, sealed.integrity);
  return sealed.integrity;
}

/**
 * One track's W, metrics, intervals, ratings and strategy evolution, written to the track's
 * folder (W.json, W.csv, metrics.json, evolution.json, similarity.json, diffs) with its games'
 * replay pages; null when the track has no strategies.
 */
export async function summarizeTrack(
  run: RunDir,
  config: TourneyConfig,
  journal: Journal,
  track: TrackId,
): Promise<TrackReport | null> {
  const { game, variant } = track;
  const name = trackName(track);
  const played = await trackGames(run, config, journal, game, variant);
  if (!played) return null;
  const anchor = config.ratingAnchor ?? firstOfflineAgent(config);
  const { strategies, byId, agents, rounds, results, games } = played;
  const winRates = tableWinRates(results);
  const W = fromGames(agents, rounds, games);
  const bootstrap = bootstrapWithDraws(agents, rounds, games, { samples: config.bootstrapSamples, seed: config.seed });
  const rated = ratings(W, games, { anchor, dispersion: bootstrap.model.dispersion, strategyFit: bootstrap.model.fit });
  const keyOf = (id: string) => ({ agent: byId.get(id)!.agent, round: byId.get(id)!.round });
  const tables = tableRatings(results, keyOf, agents, rounds, {
    anchor,
    samples: config.bootstrapSamples,
    seed: config.seed,
  });
  const roundStrategies = strategies.filter((s) => s.round <= rounds);
  const autoReps = await run.readAutoReps(name);
  const llmPlayers = await llmPlayerUse(
    run.botLogsDir(name),
    roundStrategies,
    config.prices,
    runModelTable(config.models),
  );
  const label = (id: string) => (byId.has(id) ? `${byId.get(id)!.agent}@${byId.get(id)!.round}` : id);
  const integrity = integrityRows(results, label);
  const unsandboxed = results.filter((r) => r.sandbox === 'unsafe').length;
  const summary: TrackSummary = {
    game,
    variant,
    agents,
    rounds,
    policy: config.policy,
    W: W.toJSON(),
    metrics: computeAll(W),
    bootstrap: bootstrap.result,
    elo: Object.fromEntries(rated.strategies.map((r) => [r.id, r.elo])),
    ratings: rated,
    ...(tables ? { tableRatings: tables } : {}),
    errors: errorRates(results, (id) => byId.get(id)?.agent ?? id),
    cost: costByAgent(roundStrategies),
    strategies: roundStrategies.map(
      ({ id, agent, round, status, failure, warnings, hash, cost, carriedOver, budgetStopped }) => ({
        id,
        agent,
        round,
        status,
        failure,
        ...(warnings?.length ? { warnings } : {}),
        hash,
        ...(cost?.tokens ? { cost } : {}),
        ...(carriedOver ? { carriedOver } : {}),
        ...(budgetStopped ? { budgetStopped } : {}),
      }),
    ),
    games: results.length,
    ...(unsandboxed ? { unsandboxedGames: unsandboxed } : {}),
    terminations: countBy(results.map((r) => r.termination)),
    ...(Object.keys(winRates).length ? { tableWinRates: winRates } : {}),
    ...(autoReps ? { autoReps } : {}),
    ...(Object.keys(llmPlayers).length ? { llmPlayers } : {}),
    ...(integrity.length ? { integrity } : {}),
  };
  await run.writeTrackOutputs(summary, {
    W: W.toJSON(),
    csv: W.toCSV(),
    metrics: {
      metrics: summary.metrics,
      bootstrap: summary.bootstrap,
      elo: summary.elo,
      ratings: summary.ratings,
      ...(tables ? { tableRatings: tables } : {}),
      errors: summary.errors,
      cost: summary.cost,
    },
  });
  const evolution = await evolutionOf(run, summary, strategies);
  // Replay pages for the track's games; the HTML report links those that have one.
  const paged = await writeTrackViews(run, name, results, byId);
  const index: GameIndex[string] = {
    labels: W.toJSON().strategies,
    games: results.map((r) => ({
      id: r.id,
      seats: r.spec.seats.map(label),
      scores: r.scores,
      termination: r.termination,
      reason: r.reason,
      plies: r.plies,
      page: paged.has(r.id),
    })),
  };
  return { summary, W, draws: { agents, draws: bootstrap.draws }, index, evolution, games };
}

/**
 * The viewer data of a track's games (`results`, in match-id order) in the track's bundles, by
 * round (a game's round: its newest strategy's), then match id: a tourney writes each round's as
 * the round ends, while the rules' caches still hold its positions (games/chess/rules.ts), and the
 * bundles of earlier rounds are kept as they are. Returns the ids that can be shown.
 */
export async function writeTrackViews(
  run: RunDir,
  name: string,
  results: readonly MatchResult[],
  byId: ReadonlyMap<string, { round: number }>,
): Promise<Set<string>> {
  const comparisons = roomComparisons(results);
  const roundOf = (r: MatchResult) => Math.max(0, ...r.spec.seats.map((id) => byId.get(id)?.round ?? 0));
  const ordered = results
    .map((r, i) => ({ id: r.id, round: roundOf(r), i }))
    .sort((a, b) => a.round - b.round || a.i - b.i)
    .map((r) => r.id);
  return new Set(
    await writeReplayPages(run.replaysDir, ordered, {
      bundle: name,
      extra: (id) => (comparisons.has(id) ? { comparison: comparisons.get(id) } : undefined),
    }),
  );
}

/** A track's strategies and the games that enter W (only rounds every agent completed), or null when the track has no strategies. */
export async function trackGames(run: RunDir, config: TourneyConfig, journal: Journal, game: string, variant: string) {
  const strategies = await run.strategies(trackName({ game, variant }));
  if (!strategies.length) return null;
  const byId = new Map(strategies.map((s) => [s.id, s]));
  const known = agentIds(config);
  const agents = [...known, ...strategies.map((s) => s.agent)].filter(
    (a, i, all) => all.indexOf(a) === i && strategies.some((s) => s.agent === a),
  );
  // Only rounds every agent completed count, so W is square (a run stopped mid-round).
  const rounds = Math.min(...agents.map((a) => strategies.filter((s) => s.agent === a).length));
  const results = journal
    .results()
    .filter(
      (r) =>
        r.spec.game === game &&
        r.spec.variant === variant &&
        r.spec.seats.every((id) => (byId.get(id)?.round ?? Infinity) <= rounds),
    );
  // In match-id order: the games, and so the bootstrap's samples, do not depend on the order games finished in.
  results.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const games: GameResult[] = pairwiseGames(results, (id) => ({
    agent: byId.get(id)!.agent,
    round: byId.get(id)!.round,
  }));
  return { strategies, byId, agents, rounds, results, games };
}

/**
 * How a track's agents' bots changed between rounds, how similar they are, and what each agent
 * looked at (reports/evolution/), written as evolution.json, similarity.json and a .diff beside
 * each strategy.
 */
async function evolutionOf(run: RunDir, t: TrackSummary, strategies: StrategyRecord[]): Promise<EvolutionTrack> {
  const name = trackName(t);
  // The sample bot every workspace holds (AI_example), as this run's agents saw it.
  const sample = path.join(run.workspaceDir(name, 1, t.agents[0]!), envFolderName(t.game, t.variant), 'AI_example');
  const evolution = await trackEvolution({
    track: name,
    game: t.game,
    variant: t.variant,
    agents: t.agents,
    rounds: t.rounds,
    strategies: strategies.map((s) => ({
      id: s.id,
      agent: s.agent,
      round: s.round,
      agentKind: s.agentKind,
      status: s.status,
      failure: s.failure,
      warnings: s.warnings,
      dir: s.dir,
      workspace: run.workspaceDir(name, s.round, s.agent),
      buildLog: s.buildLog,
    })),
    G: Object.fromEntries(t.agents.map((a) => [a, t.metrics.perAgent[a]?.G ?? []])),
    base: [fs.existsSync(sample) ? sample : referenceBotDir(t.game, 'random')],
  });
  await run.writeEvolution(name, {
    evolution: {
      ...evolution,
      steps: evolution.steps.map((s) => ({ ...s, diff: s.diff && { ...s.diff, unified: undefined } })),
    },
    similarity: { track: name, settings: evolution.settings, rounds: evolution.similarity, flags: evolution.flags },
    diffs: evolution.steps
      .filter((s) => s.diff?.unified)
      .map((s) => ({ round: s.round, agent: s.agent, text: s.diff!.unified })),
  });
  return evolution;
}

/**
 * Whether a run being reported finished: the games its developed rounds schedule (formats, as the
 * tourney plays them; adaptive repetitions add more, which are not counted) against those in the
 * journal, the rounds developed of those configured, and a torn last journal line (a game cut off
 * by a kill) that was dropped. Undefined for a run that finished whole.
 */
async function incompleteness(
  run: RunDir,
  config: TourneyConfig,
  journal: Journal,
): Promise<TourneySummary['incomplete']> {
  let scheduled = 0;
  let played = 0;
  let developed = config.rounds;
  for (const game of config.games) {
    for (const variant of variantsOf(config, game)) {
      const strategies = await run.strategies(trackName({ game, variant }));
      const byRound: StrategyRecord[][] = [];
      for (const s of strategies) (byRound[s.round - 1] ??= []).push(s);
      let rounds = 0;
      while (rounds < byRound.length && byRound[rounds]?.length) rounds++;
      developed = Math.min(developed, rounds);
      for (let r = 1; r <= rounds; r++) {
        const specs = roundSpecs(config, { game, variant }, byRound.slice(0, rounds), r);
        scheduled += specs.length;
        played += specs.filter((s) => journal.has(matchId(s))).length;
      }
    }
  }
  const status = await fs.promises.readFile(run.statusFile, 'utf8').then(
    (text) => (JSON.parse(text) as { state?: string }).state,
    () => undefined,
  );
  const dropped = journal.droppedBytes;
  if (played >= scheduled && developed >= config.rounds && !dropped && status !== 'interrupted' && status !== 'failed')
    return undefined;
  const notes = [
    ...(developed < config.rounds ? [`${developed} of ${config.rounds} rounds developed`] : []),
    ...(status && status !== 'finished' ? [`the run's status is "${status}"`] : []),
    ...(dropped
      ? [`a torn last journal line (${dropped} bytes: a game cut off when the run was killed) was dropped`]
      : []),
  ];
  return {
    played,
    scheduled,
    line: `incomplete: ${played} of ${scheduled} games${notes.length ? ` (${notes.join('; ')})` : ''}; catarena resume ${run.root} plays the rest`,
  };
}

/** The rating anchor when the config names none: the first offline reference agent (deterministic bots, so its scale carries over between runs). */
function firstOfflineAgent(config: TourneyConfig): string | undefined {
  const spec = config.agents.find((a) => a.startsWith(AGENT_KINDS.offline.prefix));
  return spec === undefined ? undefined : agentIds({ agents: [spec] })[0];
}

/** Agent ids in config order (the order of W's rows), read from the specs: no agent is built. */
export function agentIds(config: Pick<TourneyConfig, 'agents'>): string[] {
  return config.agents.flatMap((spec) => {
    try {
      return [agentIdOf(spec)];
    } catch {
      return []; // an agent this build does not know: its records still name it
    }
  });
}

const countBy = (keys: string[]) =>
  keys.reduce<Record<string, number>>((acc, k) => ((acc[k] = (acc[k] ?? 0) + 1), acc), {});

async function writeOutputs(
  run: RunDir,
  summary: TourneySummary,
  games: GameIndex,
  evolution: EvolutionTrack[],
): Promise<void> {
  const probes = await readProbeResults(run); // `catarena probe`'s results, when the run was probed
  const provenance = await readProvenance(run.root).catch(() => null); // the run's provenance.json
  const diffHref = (s: { round: number; agent: string }, t: { track: string }) =>
    path
      .relative(run.root, run.strategyDiffFile(t.track, s.round, s.agent))
      .split(path.sep)
      .join('/');
  const input = { summary, games, evolution, probes, diffHref, provenance };
  await run.writeSummary(summary, renderReportMarkdown(input));
  await run.writeReportHtml(renderReportHtml(input));
}
