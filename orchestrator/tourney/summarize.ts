// Rebuilds everything a run reports from its files alone (config.json, journal.jsonl, strategy
// records): W per track, the paper's metrics with bootstrap intervals, Elo, error rates, cost,
// generalizability, the leaderboard, and the JSON/CSV/Markdown outputs. `catarena report` and the
// end of `catarena tourney` both call this, so a report can always be regenerated.
import fs from 'node:fs/promises';
import path from 'node:path';
import { bootstrapMetrics } from '../../reports/metrics/bootstrap.ts';
import { bradleyTerry } from '../../reports/metrics/bradley-terry.ts';
import { computeAll, generalizability } from '../../reports/metrics/metrics.ts';
import { pairwiseGames, tableWinRates } from '../../reports/metrics/batch.ts';
import { fromGames, type GameResult, type ScoreMatrix } from '../../reports/metrics/score-matrix.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { costByAgent, errorRates, leaderboard } from '../../reports/summary.ts';
import { createAgent } from '../../agents/registry.ts';
import { Journal } from '../run/journal.ts';
import { TourneyConfigSchema, variantsOf, type TourneyConfig } from './config.ts';
import { loadRecord, pathExists } from './strategy-store.ts';
import { trackName, type StrategyRecord, type TourneySummary, type TrackSummary } from './types.ts';

export async function readRunConfig(runDir: string): Promise<TourneyConfig> {
  let text: string;
  try {
    text = await fs.readFile(path.join(runDir, 'config.json'), 'utf8');
  } catch {
    const arena = await pathExists(path.join(runDir, 'journal.jsonl'));
    throw new Error(
      arena
        ? `${runDir} is a "catarena play" or "arena" run (a journal but no config.json); resume it by running the same command again with --run-dir ${runDir}`
        : `${runDir} is not a tournament run directory (no config.json)`,
    );
  }
  return TourneyConfigSchema.parse(JSON.parse(text));
}

export async function strategiesOf(runDir: string, track: string): Promise<StrategyRecord[]> {
  const out: StrategyRecord[] = [];
  const trackDir = path.join(runDir, 'tracks', track);
  const rounds = await fs.readdir(trackDir).catch(() => [] as string[]);
  for (const round of rounds.filter((r) => /^round_\d+$/.test(r))) {
    const dir = path.join(trackDir, round, 'strategies');
    for (const file of (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.strategy.json'))) {
      const record = await loadRecord(path.join(dir, file.replace(/\.strategy\.json$/, '')));
      if (record) out.push(record);
    }
  }
  return out.sort((a, b) => a.round - b.round || a.agent.localeCompare(b.agent));
}

export async function summarizeRun(runDir: string): Promise<TourneySummary> {
  const config = await readRunConfig(runDir);
  const journal = await Journal.open(path.join(runDir, 'journal.jsonl'));
  const created = await fs.stat(path.join(runDir, 'config.json'));
  const tracks: TrackSummary[] = [];
  const matrices = new Map<string, ScoreMatrix>();

  for (const game of config.games) {
    for (const variant of variantsOf(config, game)) {
      const name = trackName({ game, variant });
      const strategies = await strategiesOf(runDir, name);
      if (!strategies.length) continue;
      const byId = new Map(strategies.map((s) => [s.id, s]));
      const known = agentIds(config);
      const agents = [...known, ...strategies.map((s) => s.agent)].filter((a, i, all) => all.indexOf(a) === i && strategies.some((s) => s.agent === a));
      // Only rounds every agent completed count, so W is square (a run stopped mid-round).
      const rounds = Math.min(...agents.map((a) => strategies.filter((s) => s.agent === a).length));
      const results = journal.results().filter((r) => r.spec.game === game && r.spec.variant === variant && r.spec.seats.every((id) => (byId.get(id)?.round ?? Infinity) <= rounds));
      const games: GameResult[] = pairwiseGames(results, (id) => ({ agent: byId.get(id)!.agent, round: byId.get(id)!.round }));
      const winRates = tableWinRates(results);
      const W = fromGames(agents, rounds, games);
      matrices.set(name, W);
      const bt = bradleyTerry(W);
      const roundStrategies = strategies.filter((s) => s.round <= rounds);
      tracks.push({
        game,
        variant,
        agents,
        rounds,
        policy: config.policy,
        W: W.toJSON(),
        metrics: computeAll(W),
        bootstrap: bootstrapMetrics(agents, rounds, games, { samples: config.bootstrapSamples, seed: config.seed }),
        elo: Object.fromEntries(bt.strategies.map((label, i) => [label, bt.elo[i]!])),
        errors: errorRates(results, (id) => byId.get(id)?.agent ?? id),
        cost: costByAgent(roundStrategies),
        strategies: roundStrategies.map(({ id, agent, round, status, failure, warnings, hash }) => ({ id, agent, round, status, failure, ...(warnings?.length ? { warnings } : {}), hash })),
        games: results.length,
        ...(Object.keys(winRates).length ? { tableWinRates: winRates } : {}),
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
    runId: path.basename(runDir),
    runDir,
    createdAt: created.birthtime.toISOString(),
    finishedAt: new Date().toISOString(),
    config,
    tracks,
    generalizability: generalizabilityByGame,
    leaderboard: leaderboard(tracks),
  };
  await writeOutputs(runDir, summary, matrices);
  return summary;
}

/** Agent ids in config order (the order of W's rows). */
export function agentIds(config: TourneyConfig): string[] {
  return config.agents.flatMap((spec) => {
    try {
      return [createAgent(spec, 0).id];
    } catch {
      return []; // an agent this build does not know: its records still name it
    }
  });
}

async function writeOutputs(runDir: string, summary: TourneySummary, matrices: Map<string, ScoreMatrix>): Promise<void> {
  for (const track of summary.tracks) {
    const dir = path.join(runDir, 'tracks', trackName(track));
    const W = matrices.get(trackName(track))!;
    await fs.writeFile(path.join(dir, 'W.json'), `${JSON.stringify(W.toJSON(), null, 2)}\n`);
    await fs.writeFile(path.join(dir, 'W.csv'), W.toCSV());
    await fs.writeFile(path.join(dir, 'metrics.json'), `${JSON.stringify({ metrics: track.metrics, bootstrap: track.bootstrap, elo: track.elo, errors: track.errors, cost: track.cost }, null, 2)}\n`);
  }
  await fs.writeFile(path.join(runDir, 'metrics.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await fs.writeFile(path.join(runDir, 'report.md'), renderMarkdown(summary));
}
