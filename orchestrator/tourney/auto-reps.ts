// Adaptive repetitions (`--reps auto`): after a track's schedule has been played once, play more
// of it in batches where one more repetition helps the metrics most, until W is stable (the
// paper's criterion: the L1 fluctuation of W between successive batches below 5%, here measured
// over the pairs a batch played — the least certain ones, so it is stricter than over all of W —
// and required twice in a row, so one quiet batch by luck does not end it), or the widest
// interval of S and L is as narrow as asked, or the budget (games, minutes) is spent.
//
// Batch b plays repetition b of the units it picks (a unit's repetitions are numbered by batch,
// formats/field.ts moreSpecs), so which batch a game belongs to is known from the game itself: a
// resumed run recomputes every decision from the journal and plays only what is missing.
//
// Which units: the cells of W a unit's games land in, each worth
//   Σ_metrics coef² · Var(cell mean) / (units + 1)
// — how much one more unit in that cell shrinks the variance of S, L and C of every agent
// (coef: the cell's weight in the metric, the metrics being linear in W; Var from cells.ts) —
// summed over the unit's cells and divided by the games it costs. Each batch plays the best
// quarter of the units (at least one).
import { bootstrapMetrics } from '../../reports/metrics/bootstrap.ts';
import { cellModel, type CellModel } from '../../reports/metrics/cells.ts';
import { counterAdaptation, globalLearning, strategyCoding } from '../../reports/metrics/metrics.ts';
import {
  fromGames,
  strategyIndex,
  type GameResult,
  type ScoreMatrix,
  type StrategyKey,
} from '../../reports/metrics/score-matrix.ts';
import type { AutoRepsLog, StopReason } from '../../records/tourney.ts';

export type { AutoRepsLog } from '../../records/tourney.ts';

export interface AutoRepsSettings {
  /** Stop when the relative L1 change of W over the cells a batch played falls below this (default 0.05). */
  fluctuation: number;
  /** Stop instead when every S and L interval (95%) is at most this wide. */
  targetWidth?: number;
  /** Most games of the track in all (the first pass included). */
  maxGames: number;
  /** Most minutes the adaptive batches may take. */
  maxMinutes?: number;
  /** Share of the units a batch plays (default 0.25). */
  batchShare: number;
}

export const AUTO_REPS_DEFAULTS = { fluctuation: 0.05, batchShare: 0.25, budgetFactor: 5 } as const;

/** A unit the driver can play once more: the strategies its games are between, and its cost in games. */
export interface AutoUnit {
  key: string;
  members: StrategyKey[];
  cost: number;
}

export interface AutoRepsDriver {
  agents: string[];
  rounds: number;
  units: AutoUnit[];
  /**
   * The first pass and the batches before `beforeBatch`: their games as W reads them, and how
   * many games (journal entries, the unit of costs and budget) that was.
   */
  games(beforeBatch: number): Promise<{ results: GameResult[]; played: number }>;
  /** Plays batch `batch`: one more repetition of each unit given. */
  play(units: AutoUnit[], batch: number): Promise<void>;
  /** After every decision (for a progress line and the run directory's log). */
  report?(log: AutoRepsLog): Promise<void> | void;
  now?(): number;
}

const cellKey = (s: number, t: number) => (s < t ? `${s},${t}` : `${t},${s}`);

/** The W cell pairs (s < t) a unit's games land in. */
function cellsOf(W: ScoreMatrix, unit: AutoUnit): string[] {
  const idx = unit.members.map((k) => strategyIndex(W, k));
  const out: string[] = [];
  for (let x = 0; x < idx.length; x++)
    for (let y = x + 1; y < idx.length; y++) if (idx[x] !== idx[y]) out.push(cellKey(idx[x]!, idx[y]!));
  return out;
}

/** Each played cell pair's weight in S, L and C of every agent: Σ coef² (the metrics are linear in W). */
function influence(W: ScoreMatrix, model: CellModel): Map<string, number> {
  const metrics = () =>
    W.agents.flatMap((_, i) => [strategyCoding(W, i), globalLearning(W, i), counterAdaptation(W, i)]);
  const base = metrics();
  const out = new Map<string, number>();
  const delta = 1e-3;
  for (const { s, t } of model.cells) {
    const st = s * W.size + t;
    const ts = t * W.size + s;
    W.sums[st]! += delta * W.counts[st]!;
    W.sums[ts]! -= delta * W.counts[ts]!;
    const moved = metrics();
    W.sums[st]! -= delta * W.counts[st]!;
    W.sums[ts]! += delta * W.counts[ts]!;
    let sum = 0;
    moved.forEach((m, k) => {
      const b = base[k];
      if (m !== null && b !== null && b !== undefined) sum += ((m - b) / delta) ** 2;
    });
    out.set(cellKey(s, t), sum);
  }
  return out;
}

/** The units of the next batch: the best `share` of them by variance removed per game, within the games left. */
export function pickUnits(
  W: ScoreMatrix,
  model: CellModel,
  units: readonly AutoUnit[],
  share: number,
  gamesLeft: number,
): AutoUnit[] {
  const weight = influence(W, model);
  const gain = new Map<string, number>();
  model.cells.forEach((cell, c) => {
    const key = cellKey(cell.s, cell.t);
    gain.set(key, ((weight.get(key) ?? 0) * model.spreads[c]!.meanVariance) / (cell.units.length + 1));
  });
  const scored = units
    .map((unit) => ({ unit, score: cellsOf(W, unit).reduce((a, k) => a + (gain.get(k) ?? 0), 0) / unit.cost }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.unit.key.localeCompare(b.unit.key));
  const want = Math.max(1, Math.ceil(share * units.length));
  const picked: AutoUnit[] = [];
  let cost = 0;
  for (const { unit } of scored) {
    if (picked.length >= want) break;
    if (cost + unit.cost > gamesLeft) continue;
    picked.push(unit);
    cost += unit.cost;
  }
  return picked;
}

/** Σ|ΔW| / Σ|W before| over both cells of every pair in `cells`. */
export function fluctuationOver(before: ScoreMatrix, after: ScoreMatrix, cells: readonly string[]): number {
  let change = 0;
  let size = 0;
  for (const key of new Set(cells)) {
    const [s, t] = key.split(',').map(Number) as [number, number];
    for (const [x, y] of [
      [s, t],
      [t, s],
    ] as const) {
      const b = before.at(x, y);
      const a = after.at(x, y);
      if (a === null || b === null) continue;
      change += Math.abs(a - b);
      size += Math.abs(b);
    }
  }
  return size > 0 ? change / size : 0;
}

/** Widest 95% interval of S and L over the agents (a quick 300-sample bootstrap, seeded). */
export function widestInterval(agents: string[], rounds: number, games: readonly GameResult[], seed: number): number {
  const b = bootstrapMetrics(agents, rounds, games, { samples: 300, seed });
  let widest = 0;
  for (const a of agents) {
    for (const iv of [b.perAgent[a]!.S, b.perAgent[a]!.L])
      if (iv.lo !== null && iv.hi !== null) widest = Math.max(widest, iv.hi - iv.lo);
  }
  return widest;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function runAutoReps(driver: AutoRepsDriver, settings: AutoRepsSettings, seed = 1): Promise<AutoRepsLog> {
  const now = driver.now ?? Date.now;
  const started = now();
  const { agents, rounds } = driver;
  const first = await driver.games(0);
  const log: AutoRepsLog = { firstPass: first.played, games: first.played, batches: [], maxWidth: null, stopped: null };
  const stop = async (reason: StopReason, detail: string) => {
    log.stopped = { reason, detail };
    await driver.report?.(log);
    return log;
  };

  let previous: ScoreMatrix | null = null;
  let touched: string[] = [];
  for (let batch = 0; ; batch++) {
    const { results: games, played } = batch === 0 ? first : await driver.games(batch);
    const W = fromGames(agents, rounds, games);
    log.games = played;
    if (previous) {
      const f = fluctuationOver(previous, W, touched);
      log.batches[batch - 1]!.fluctuation = f;
      const before = log.batches[batch - 2]?.fluctuation;
      if (
        settings.targetWidth === undefined &&
        f < settings.fluctuation &&
        before !== undefined &&
        before !== null &&
        before < settings.fluctuation
      ) {
        return stop(
          'stable',
          `W is stable: its L1 fluctuation over the pairs batches ${batch - 1} and ${batch} played is ${pct(before)} and ${pct(f)}, both < ${pct(settings.fluctuation)}`,
        );
      }
    }
    if (settings.targetWidth !== undefined) {
      log.maxWidth = widestInterval(agents, rounds, games, seed);
      if (log.maxWidth <= settings.targetWidth)
        return stop(
          'width',
          `the widest 95% interval of S and L is ${log.maxWidth.toFixed(3)} ≤ ${settings.targetWidth}`,
        );
    }
    if (settings.maxMinutes !== undefined && now() - started >= settings.maxMinutes * 60_000)
      return stop('time', `the ${settings.maxMinutes}-minute budget is spent`);
    const left = settings.maxGames - played;
    const cheapest = Math.min(...driver.units.map((u) => u.cost));
    if (left < cheapest)
      return stop(
        'budget',
        `the budget of ${settings.maxGames} games is spent (${played} played${batch === 0 ? ' by the schedule played once' : ''})`,
      );

    const model = cellModel(W, games);
    const picked = pickUnits(W, model, driver.units, settings.batchShare, left);
    if (!picked.length)
      return stop(
        left > 0 ? 'nothing' : 'budget',
        left > 0 ? 'no unit would narrow the intervals further' : `the budget of ${settings.maxGames} games is spent`,
      );
    touched = picked.flatMap((u) => cellsOf(W, u));
    log.batches.push({
      batch: batch + 1,
      units: picked.map((u) => u.key),
      games: picked.reduce((a, u) => a + u.cost, 0),
      fluctuation: null,
    });
    await driver.report?.(log);
    await driver.play(picked, batch);
    previous = W;
  }
}
