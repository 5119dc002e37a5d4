// Ratings with intervals: Bradley–Terry with Davidson draws (davidson.ts) per strategy and per
// agent (all of an agent's strategies as one player; games between them left out), on the Elo
// scale 400·log10(π). Intervals are Wald intervals from the observed information, scaled by the
// dispersion of the games around the fit (quasi-likelihood: Var = φ·I⁺), so games that vary more
// than the model says widen them. Elo 0 is the anchor: a named strategy or agent, whose own
// rating is then exactly 0 with no interval, so runs with the same anchor share a scale;
// without one, the mean of the rated players.
import { addGame, emptyRecord, fitDavidson, thetaCovariance, type DavidsonFit } from './davidson.ts';
import { normalQuantile } from './normal.ts';
import { strategyIndex, type GameResult, type ScoreMatrix } from './score-matrix.ts';
import type { Rating, Ratings } from '../../records/metrics.ts';

const ELO_PER_NAT = 400 / Math.LN10;

export interface RatingsOptions {
  /** A strategy label (agent@round) or an agent id (its round-1 strategy, and the agent itself); default: the mean. */
  anchor?: string;
  level?: number;
  /** φ from the interval model (cells.ts); default 1. */
  dispersion?: number;
  /** The strategies' fit when already made (cells.ts makes it for the intervals). */
  strategyFit?: DavidsonFit;
}

function rate(
  ids: string[],
  fit: DavidsonFit,
  games: number[],
  anchor: number | null,
  z: number,
  dispersion: number,
): Rating[] {
  const P = ids.length;
  const cov = thetaCovariance(fit, dispersion);
  return ids.map((id, i) => {
    const a = anchor ?? i;
    const centre = anchor === null ? 0 : fit.theta[anchor]!;
    const variance = anchor === null ? cov[i * P + i]! : cov[i * P + i]! + cov[a * P + a]! - 2 * cov[i * P + a]!;
    const elo = (fit.theta[i]! - centre) * ELO_PER_NAT + 0;
    const half = z * Math.sqrt(Math.max(0, variance)) * ELO_PER_NAT;
    return { id, elo, lo: elo - half, hi: elo + half, games: games[i]! };
  });
}

export function ratings(W: ScoreMatrix, games: readonly GameResult[], options: RatingsOptions = {}): Ratings {
  const level = options.level ?? 0.95;
  const dispersion = options.dispersion ?? 1;
  const z = normalQuantile(1 - (1 - level) / 2);

  const S = W.size;
  const labels = Array.from({ length: S }, (_, s) => W.label(s));
  const strategyGames = new Array<number>(S).fill(0);
  const T = W.agents.length;
  const agentRecord = emptyRecord(T);
  const agentGames = new Array<number>(T).fill(0);
  for (const g of games) {
    const a = strategyIndex(W, g.a);
    const b = strategyIndex(W, g.b);
    if (a === b) continue;
    strategyGames[a]!++;
    strategyGames[b]!++;
    const i = W.agentIndex(g.a.agent);
    const j = W.agentIndex(g.b.agent);
    if (i === j) continue;
    addGame(agentRecord, T, i, j, g.scoreA);
    agentGames[i]!++;
    agentGames[j]!++;
  }
  const strategyFit =
    options.strategyFit ??
    (() => {
      const record = emptyRecord(S);
      for (const g of games) addGame(record, S, strategyIndex(W, g.a), strategyIndex(W, g.b), g.scoreA);
      return fitDavidson(record, S);
    })();
  const agentFit = fitDavidson(agentRecord, T);

  const anchor = options.anchor;
  const agentAnchor =
    anchor === undefined
      ? -1
      : W.agents.indexOf(anchor.includes('@') ? anchor.slice(0, anchor.lastIndexOf('@')) : anchor);
  const strategyAnchor =
    anchor === undefined
      ? -1
      : anchor.includes('@')
        ? labels.indexOf(anchor)
        : agentAnchor >= 0
          ? W.index(agentAnchor, 1)
          : -1;
  const anchored = strategyAnchor >= 0;
  return {
    model: 'davidson',
    anchor: anchored ? labels[strategyAnchor]! : 'mean',
    drawParameter: strategyFit.nu,
    dispersion,
    level,
    strategies: rate(labels, strategyFit, strategyGames, anchored ? strategyAnchor : null, z, dispersion),
    agents:
      T > 1
        ? rate([...W.agents], agentFit, agentGames, anchored && agentAnchor >= 0 ? agentAnchor : null, z, dispersion)
        : [],
  };
}
