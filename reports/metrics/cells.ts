// The games behind W, cell by cell, and how uncertain each cell's mean is. This is what the
// interval bootstrap (bootstrap.ts) and the adaptive repetitions (orchestrator/tourney/auto-reps.ts)
// share.
//
// A pair of strategies (s < t) holds units: games sharing a `group` (the two colour-swapped games
// of a pairing, one Hold'em table group, one Bridge match), or a lone game. The variance of a
// unit's mean score is estimated twice and the two are pooled:
//   - from the model: a Bradley–Terry–Davidson fit of all games of the track gives every pair an
//     expected score E and a per-game variance v = E(1 − E) − P(draw)/4; a unit of g games then
//     has variance φ·v/g, where the dispersion φ is the Pearson χ² of all units against the fit
//     divided by its degrees of freedom (quasi-likelihood; McCullagh & Nelder 1989, §4.5). φ < 1
//     when colour-swapped games cancel each other's luck, φ > 1 when the bots are intransitive
//     and the model fits badly — which widens the intervals rather than narrowing them;
//   - from the cell's own units (their sample variance, k − 1 degrees of freedom) when it has two
//     or more.
// The pooled value weighs the model as PRIOR_DF degrees of freedom against the cell's k − 1
// (a moderated variance, as in Smyth 2004), so a cell played once still has an honest spread
// and a cell played often is ruled by its own games.
import { addGame, emptyRecord, fitDavidson, pairModel, type DavidsonFit } from './davidson.ts';
import { strategyIndex, type GameResult, type ScoreMatrix } from './score-matrix.ts';

/** Degrees of freedom the model's variance counts for, against a cell's own k − 1. */
export const PRIOR_DF = 4;

/** One resampling unit: a group's (or a lone game's) score sums in both directions. */
export interface Unit {
  sumST: number;
  sumTS: number;
  games: number;
}

export interface PairCell {
  s: number;
  t: number;
  units: Unit[];
}

export interface CellSpread {
  /** Expected score of s against t under the fit. */
  expected: number;
  /** Variance of the cell's mean score (s's side), pooled as above. */
  meanVariance: number;
  /** The part of meanVariance that resampling the cell's own units cannot produce (0 when its units show enough spread). */
  missingVariance: number;
}

export interface CellModel {
  cells: PairCell[];
  spreads: CellSpread[];
  fit: DavidsonFit;
  /** φ: Pearson χ² / degrees of freedom, moderated towards 1 by PRIOR_DF. */
  dispersion: number;
}

export function buildCells(shape: ScoreMatrix, games: readonly GameResult[]): PairCell[] {
  const cells = new Map<number, PairCell & { byGroup: Map<string, Unit> }>();
  for (const g of games) {
    const a = strategyIndex(shape, g.a);
    const b = strategyIndex(shape, g.b);
    if (a === b) continue; // as in fromGames: the diagonal is ignored
    const [s, t, sumST, sumTS] = a < b ? [a, b, g.scoreA, g.scoreB] : [b, a, g.scoreB, g.scoreA];
    const key = s * shape.size + t;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { s, t, units: [], byGroup: new Map() }));
    let unit = g.group === undefined ? undefined : cell.byGroup.get(g.group);
    if (!unit) {
      unit = { sumST: 0, sumTS: 0, games: 0 };
      cell.units.push(unit);
      if (g.group !== undefined) cell.byGroup.set(g.group, unit);
    }
    unit.sumST += sumST;
    unit.sumTS += sumTS;
    unit.games += 1;
  }
  return [...cells.values()].map(({ s, t, units }) => ({ s, t, units }));
}

/** The Davidson fit over strategies (flat W indices) from the games. */
export function fitStrategies(shape: ScoreMatrix, games: readonly GameResult[]): DavidsonFit {
  const record = emptyRecord(shape.size);
  for (const g of games) addGame(record, shape.size, strategyIndex(shape, g.a), strategyIndex(shape, g.b), g.scoreA);
  return fitDavidson(record, shape.size);
}

const unitMean = (u: Unit) => u.sumST / u.games;

export function cellModel(shape: ScoreMatrix, games: readonly GameResult[]): CellModel {
  const cells = buildCells(shape, games);
  const fit = fitStrategies(shape, games);
  const models = cells.map((c) => pairModel(fit, c.s, c.t));

  let chi2 = 0;
  let units = 0;
  cells.forEach((cell, k) => {
    const { expected, variance } = models[k]!;
    for (const u of cell.units) {
      chi2 += ((unitMean(u) - expected) ** 2 * u.games) / variance;
      units++;
    }
  });
  const df = Math.max(0, units - (shape.size - 1));
  const dispersion = (chi2 * (df > 0 ? 1 : 0) + PRIOR_DF) / (df + PRIOR_DF);

  const spreads = cells.map((cell, k): CellSpread => {
    const { expected, variance } = models[k]!;
    const count = cell.units.length;
    const meanGames = cell.units.reduce((a, u) => a + u.games, 0) / count;
    const modelVar = (dispersion * variance) / meanGames;
    const ys = cell.units.map(unitMean);
    const mean = ys.reduce((a, y) => a + y, 0) / count;
    const ss = ys.reduce((a, y) => a + (y - mean) ** 2, 0); // (k − 1)·s²
    const unitVar = (PRIOR_DF * modelVar + ss) / (PRIOR_DF + count - 1);
    const meanVariance = unitVar / count;
    // Resampling k units with replacement gives the mean a variance of ss / k².
    return { expected, meanVariance, missingVariance: Math.max(0, meanVariance - ss / (count * count)) };
  });
  return { cells, spreads, fit, dispersion };
}
