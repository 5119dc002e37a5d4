// What the metric modules compute (reports/metrics/), as records: a run's summary and every
// report carry them, so they live here and not with the code that computes them.

/** A Pearson correlation. Undefined (zero variance, or < 2 points) is reported as value 0, as in the paper, with defined: false. */
export interface Correlation {
  value: number;
  defined: boolean;
}

export interface FieldSeries {
  /** σ_n: population standard deviation over agents of B_i^n. */
  sigma: (number | null)[];
  /** max_i B_i^n − min_i B_i^n. */
  range: (number | null)[];
  /** avg_i G_i^n. */
  meanG: (number | null)[];
}

export interface AgentMetrics {
  S: number | null;
  /** G_i^n, index n−1 = round n. */
  G: (number | null)[];
  L: number | null;
  B: (number | null)[];
  /** A_i^n, index n−1 = round n; A[0] is always null (A is defined for n ≥ 2). */
  A: (number | null)[];
  C: number | null;
  /** Self scores S_i^n, index n−1 = round n. */
  self: (number | null)[];
  SI: Correlation;
  /** Present only when a variant matrix was given. */
  U?: number | null;
}

export interface AllMetrics {
  perAgent: Record<string, AgentMetrics>;
  field: FieldSeries & { DIS_std: Correlation; DIS_range: Correlation; Trend_mean: Correlation };
  /** Undefined SI values are excluded from the SI ranking (rank null). */
  ranks: Record<'S' | 'L' | 'C' | 'SI', Record<string, number | null>> & { U?: Record<string, number | null> };
}

export interface Interval {
  /** The metric on the observed games. */
  point: number | null;
  lo: number | null;
  hi: number | null;
  /** Samples in which the metric had a value (SI: was defined); lo/hi are null when 0. */
  samples: number;
}

export interface AgentIntervals {
  S: Interval;
  L: Interval;
  C: Interval;
  /** Undefined SI values (zero variance) are left out of the interval and of `point`. */
  SI: Interval;
  /** G_i^n, index n−1 = round n. */
  G: Interval[];
}

export interface BootstrapResult {
  samples: number;
  seed: number;
  level: number;
  /** 'smoothed': units redrawn per pair of strategies plus the spread a pair's own units cannot show (docs/metrics.md). */
  method: 'smoothed';
  /** φ, the dispersion of the games around the Davidson model (1 = as the model says). */
  dispersion: number;
  perAgent: Record<string, AgentIntervals>;
  /**
   * probs[agent][r−1] = share of samples in which the agent holds rank r (1 = best). A tie over
   * ranks r..r+k−1 gives each tied agent 1/k of each of those ranks, so rows and columns sum to 1
   * when the metric is never null.
   */
  rankProbabilities: { S: Record<string, number[]>; L: Record<string, number[]> };
  /** above[a][b] = share of samples in which a's metric is higher than b's (ties ½); null when never both defined. */
  above: { S: Record<string, Record<string, number | null>>; L: Record<string, Record<string, number | null>> };
}

/** One rating on the Elo scale with its interval. */
export interface Rating {
  /** Strategy label agent@round, or the agent id. */
  id: string;
  elo: number;
  lo: number;
  hi: number;
  /** Games the rated player played (no virtual games). */
  games: number;
}

export interface Ratings {
  /** Bradley–Terry with Davidson draws, fitted by maximum likelihood (docs/metrics.md "Ratings"). */
  model: 'davidson';
  /** What Elo 0 is: a strategy label, an agent id, or "mean" (the mean of the rated players). */
  anchor: string;
  /** Davidson's ν for the strategies' fit (0 = no draws). */
  drawParameter: number;
  /** φ: the dispersion of the games around the fit (cells.ts); the intervals scale with √φ. */
  dispersion: number;
  level: number;
  strategies: Rating[];
  agents: Rating[];
}

/** How a rating's interval was made: a percentile bootstrap (what it resamples is `unit`). */
export interface BootstrapIntervals {
  method: 'percentile bootstrap';
  /** What one resampled unit is (a table group, a track's game pair …). */
  unit: string;
  samples: number;
  seed: number;
  level: number;
}

/** Plackett–Luce ratings of the players of a track's tables (docs/metrics.md "Ratings for tables"). */
export interface TableRatings {
  model: 'plackett-luce';
  /** What Elo 0 is: a strategy label, an agent id, or "mean". */
  anchor: string;
  /** How ties in places are counted. */
  ties: 'averaged over tie orders';
  intervals: BootstrapIntervals;
  /** Tables rated, the bootstrap units they form, and how many had a tie for some place. */
  tables: number;
  units: number;
  tiedTables: number;
  /** Games = tables the player sat at with another player. */
  strategies: Rating[];
  agents: Rating[];
}

/** One Bradley–Terry rating per agent over every track (docs/metrics.md "One rating across games"). */
export interface CrossGameRatings {
  model: 'bradley-terry';
  /** How the tracks are balanced. */
  scheme: 'each track weighs the same';
  anchor: string;
  intervals: BootstrapIntervals;
  /** Per track: its pairwise games between different agents and the weight each of them got. */
  tracks: Array<{ track: string; games: number; weight: number }>;
  /** Games = pairwise games against other agents, over all tracks (unweighted). */
  agents: Rating[];
}

export interface ScoreMatrixJSON {
  agents: string[];
  rounds: number;
  /** Strategy labels "agent@round", in strategy order. */
  strategies: string[];
  /** W, row = the strategy scoring; null on the diagonal and where no game was played. */
  W: (number | null)[][];
  /** Games behind each cell. */
  games: number[][];
}

export interface WinRate {
  tables: number;
  /** Tables won; a tie for the chip lead at the hand cap counts its share. */
  wins: number;
  rate: number;
}
