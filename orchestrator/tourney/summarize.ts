// Rebuilds everything a run reports from its files alone (config.json, journal.jsonl, strategy
// records): W per track, the paper's metrics with bootstrap intervals, ratings with intervals, error rates, cost,
// generalizability, the leaderboard, and the JSON/CSV/Markdown outputs. `catarena report` and the
// end of `catarena tourney` both call this, so a report can always be regenerated.
import path from 'node:path';
import { bootstrapWithDraws, type BootstrapDraws } from '../../reports/metrics/bootstrap.ts';
import { ratings } from '../../reports/metrics/ratings.ts';
import { computeAll, generalizability } from '../../reports/metrics/metrics.ts';
import { pairwiseGames, tableWinRates } from '../../reports/metrics/batch.ts';
import { duplicateMatchesOf } from '../../reports/metrics/duplicate.ts';
import { fromGames, type GameResult, type ScoreMatrix } from '../../reports/metrics/score-matrix.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { renderReportHtml, trackKey, type GameIndex } from '../../reports/html/report-html.ts';
import { writeReplayPages } from '../../reports/html/replay-page.ts';
import { probeSectionHtml } from '../../reports/html/probe-html.ts';
import { probeSectionMarkdown } from '../../reports/probe-markdown.ts';
import { costByAgent, errorRates, leaderboard, withRankProbabilities } from '../../reports/summary.ts';
import { llmPlayerUse } from '../../reports/llm-player-use.ts';
import { createAgent } from '../../agents/registry.ts';
import { variantsOf, type TourneyConfig } from '../config/tourney-config.ts';
import { RunDir } from '../run/run-dir.ts';
import { readProbeResults } from '../probe/probe-files.ts';
import { trackName, type TourneySummary, type TrackSummary } from '../../model/tourney.ts';

export async function summarizeRun(runDir: string): Promise<TourneySummary> {
  const run = new RunDir(runDir);
  const config = await run.readConfig();
  const journal = await run.openJournal();
  const tracks: TrackSummary[] = [];
  const matrices = new Map<string, ScoreMatrix>();
  const draws: Array<{ agents: string[]; draws: BootstrapDraws }> = [];
  const gameIndex: GameIndex = {};
  const comparisons = new Map<string, { otherNs: number; imps: number }>(); // Bridge room → the other room's score and the board's IMPs
  const anchor = config.ratingAnchor ?? firstOfflineAgent(config);

  for (const game of config.games) {
    for (const variant of variantsOf(config, game)) {
      const name = trackName({ game, variant });
      const strategies = await run.strategies(name);
      if (!strategies.length) continue;
      const byId = new Map(strategies.map((s) => [s.id, s]));
      const known = agentIds(config);
      const agents = [...known, ...strategies.map((s) => s.agent)].filter((a, i, all) => all.indexOf(a) === i && strategies.some((s) => s.agent === a));
      // Only rounds every agent completed count, so W is square (a run stopped mid-round).
      const rounds = Math.min(...agents.map((a) => strategies.filter((s) => s.agent === a).length));
      const results = journal.results().filter((r) => r.spec.game === game && r.spec.variant === variant && r.spec.seats.every((id) => (byId.get(id)?.round ?? Infinity) <= rounds));
      const games: GameResult[] = pairwiseGames(results, (id) => ({ agent: byId.get(id)!.agent, round: byId.get(id)!.round }));
      const winRates = tableWinRates(results);
      const rooms = new Map<string, typeof results>(); // "match|board" → the results of its rooms
      for (const r of results) {
        const key = r.spec.duplicate && `${r.spec.duplicate.match}|${r.spec.duplicate.board}`;
        if (key) rooms.set(key, [...(rooms.get(key) ?? []), r]);
      }
      for (const m of duplicateMatchesOf(results)) {
        for (const board of m.boards) {
          for (const r of rooms.get(`${m.match}|${board.board}`) ?? []) {
            comparisons.set(r.id, { otherNs: r.spec.duplicate!.room === 'open' ? board.closed : board.open, imps: board.imps });
          }
        }
      }
      const W = fromGames(agents, rounds, games);
      matrices.set(name, W);
      const bootstrap = bootstrapWithDraws(agents, rounds, games, { samples: config.bootstrapSamples, seed: config.seed });
      draws.push({ agents, draws: bootstrap.draws });
      const rated = ratings(W, games, { anchor, dispersion: bootstrap.model.dispersion, strategyFit: bootstrap.model.fit });
      const roundStrategies = strategies.filter((s) => s.round <= rounds);
      const autoReps = await run.readAutoReps(name);
      const llmPlayers = await llmPlayerUse(run.botLogsDir(name), roundStrategies);
      const label = (id: string) => (byId.has(id) ? `${byId.get(id)!.agent}@${byId.get(id)!.round}` : id);
      gameIndex[trackKey(name)] = {
        labels: W.toJSON().strategies,
        games: results.map((r) => ({ id: r.id, seats: r.spec.seats.map(label), scores: r.scores, termination: r.termination, reason: r.reason, plies: r.plies, page: false })),
      };
      tracks.push({
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
        errors: errorRates(results, (id) => byId.get(id)?.agent ?? id),
        cost: costByAgent(roundStrategies),
        strategies: roundStrategies.map(({ id, agent, round, status, failure, warnings, hash, cost, carriedOver }) => ({ id, agent, round, status, failure, ...(warnings?.length ? { warnings } : {}), hash, ...(cost?.tokens ? { cost } : {}), ...(carriedOver ? { carriedOver } : {}) })),
        games: results.length,
        terminations: countBy(results.map((r) => r.termination)),
        ...(Object.keys(winRates).length ? { tableWinRates: winRates } : {}),
        ...(autoReps ? { autoReps } : {}),
        ...(Object.keys(llmPlayers).length ? { llmPlayers } : {}),
      });
    }
  }

  const generalizabilityByGame: TourneySummary['generalizability'] = {};
  for (const game of config.games) {
    const std = matrices.get(trackName({ game, variant: 'standard' }));
    const variant = matrices.get(trackName({ game, variant: 'variant' }));
    if (std && variant && std.agents.join() === variant.agents.join()) generalizabilityByGame[game] = generalizability(std, variant);
  }

  const summary: TourneySummary = {
    runId: path.basename(run.root),
    runDir: run.root,
    createdAt: await run.createdAt(),
    finishedAt: new Date().toISOString(),
    config,
    tracks,
    generalizability: generalizabilityByGame,
    leaderboard: withRankProbabilities(leaderboard(tracks), draws),
  };
  await writeOutputs(run, summary, matrices, gameIndex, comparisons);
  return summary;
}

/** The rating anchor when the config names none: the first offline reference agent (deterministic bots, so its scale carries over between runs). */
function firstOfflineAgent(config: TourneyConfig): string | undefined {
  const spec = config.agents.find((a) => a.startsWith('offline:'));
  if (!spec) return undefined;
  try {
    return createAgent(spec, 0, { endpoint: config.agentEndpoints?.[spec] }).id;
  } catch {
    return undefined;
  }
}

/** Agent ids in config order (the order of W's rows). */
export function agentIds(config: TourneyConfig): string[] {
  return config.agents.flatMap((spec) => {
    try {
      return [createAgent(spec, 0, { endpoint: config.agentEndpoints?.[spec] }).id];
    } catch {
      return []; // an agent this build does not know: its records still name it
    }
  });
}

const countBy = (keys: string[]) => keys.reduce<Record<string, number>>((acc, k) => ((acc[k] = (acc[k] ?? 0) + 1), acc), {});

async function writeOutputs(run: RunDir, summary: TourneySummary, matrices: Map<string, ScoreMatrix>, games: GameIndex, comparisons: Map<string, { otherNs: number; imps: number }>): Promise<void> {
  for (const track of summary.tracks) {
    const W = matrices.get(trackName(track))!;
    await run.writeTrackOutputs(track, { W: W.toJSON(), csv: W.toCSV(), metrics: { metrics: track.metrics, bootstrap: track.bootstrap, elo: track.elo, ratings: track.ratings, errors: track.errors, cost: track.cost } });
  }
  const probes = await readProbeResults(run); // `catarena probe`'s results, when the run was probed
  await run.writeSummary(summary, probes.length ? `${renderMarkdown(summary)}\n${probeSectionMarkdown(probes)}\n` : renderMarkdown(summary));
  // Replay pages for every game, then the HTML report that links them.
  const ids = Object.values(games).flatMap((t) => t.games.map((g) => g.id));
  const paged = new Set(await writeReplayPages(run.replaysDir, ids, { extra: (id) => (comparisons.has(id) ? { comparison: comparisons.get(id) } : undefined) }));
  for (const t of Object.values(games)) for (const g of t.games) g.page = paged.has(g.id);
  await run.writeReportHtml(renderReportHtml(summary, games, probeSectionHtml(probes)));
}
