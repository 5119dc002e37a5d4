// The score matrix W of metrics.md: W[(i,n),(j,m)] = mean score of strategy (i,n) against (j,m).
// Cells keep the score sum and the game count rather than the mean, so matrices can be rebuilt
// cheaply from resampled games (bootstrap) and the number of games behind a cell stays visible.
import type { ScoreMatrixJSON } from '../../records/metrics.ts';

/** A strategy: agent `agent`'s bot from development round `round` (1-based). */
export interface StrategyKey {
  agent: string;
  round: number;
}

/** One pairwise game: `scoreA` is a's per-game score in [0, 1], `scoreB` b's. */
export interface GameResult {
  a: StrategyKey;
  b: StrategyKey;
  scoreA: number;
  scoreB: number;
  /** Games sharing a group (e.g. the two colour-swapped games of one pairing) are resampled together. */
  group?: string;
}

export class ScoreMatrix {
  readonly agents: readonly string[];
  readonly rounds: number;
  /** T·N, the number of strategies. */
  readonly size: number;
  /** Row-major size×size score sums and game counts; the diagonal is always 0. */
  readonly sums: Float64Array;
  readonly counts: Float64Array;

  constructor(agents: readonly string[], rounds: number, sums?: Float64Array, counts?: Float64Array) {
    if (agents.length === 0) throw new Error('ScoreMatrix: no agents');
    if (new Set(agents).size !== agents.length) throw new Error('ScoreMatrix: duplicate agent ids');
    if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`ScoreMatrix: bad round count ${rounds}`);
    this.agents = agents.slice();
    this.rounds = rounds;
    this.size = agents.length * rounds;
    const cells = this.size * this.size;
    this.sums = sums ?? new Float64Array(cells);
    this.counts = counts ?? new Float64Array(cells);
    if (this.sums.length !== cells || this.counts.length !== cells) {
      throw new Error(`ScoreMatrix: expected ${cells} cells`);
    }
  }

  /** Flat strategy index: agent-major, round-minor ("0,1 0,2 0,3 1,1 …"). */
  index(agentIndex: number, round: number): number {
    return agentIndex * this.rounds + (round - 1);
  }

  agentIndex(agent: string): number {
    const i = this.agents.indexOf(agent);
    if (i < 0) throw new Error(`ScoreMatrix: unknown agent ${JSON.stringify(agent)}`);
    return i;
  }

  strategy(s: number): StrategyKey {
    return { agent: this.agents[Math.floor(s / this.rounds)]!, round: (s % this.rounds) + 1 };
  }

  label(s: number): string {
    const { agent, round } = this.strategy(s);
    return `${agent}@${round}`;
  }

  /** W between flat strategy indices; null on the diagonal or where no game was played. */
  at(s: number, t: number): number | null {
    if (s === t) return null;
    const c = this.counts[s * this.size + t]!;
    return c > 0 ? this.sums[s * this.size + t]! / c : null;
  }

  /** W[(i,n),(j,m)] with agent indices i, j and 1-based rounds n, m. */
  value(i: number, n: number, j: number, m: number): number | null {
    return this.at(this.index(i, n), this.index(j, m));
  }

  gamesAt(s: number, t: number): number {
    return s === t ? 0 : this.counts[s * this.size + t]!;
  }

  toJSON(): ScoreMatrixJSON {
    const idx = [...Array(this.size).keys()];
    return {
      agents: this.agents.slice(),
      rounds: this.rounds,
      strategies: idx.map((s) => this.label(s)),
      W: idx.map((s) => idx.map((t) => this.at(s, t))),
      games: idx.map((s) => idx.map((t) => this.gamesAt(s, t))),
    };
  }

  /** One header row of labels, then one row per strategy; empty cells are null. */
  toCSV(): string {
    const idx = [...Array(this.size).keys()];
    const lines = [['strategy', ...idx.map((s) => this.label(s))]];
    for (const s of idx) lines.push([this.label(s), ...idx.map((t) => String(this.at(s, t) ?? ''))]);
    return `${lines.map((row) => row.map(csvField).join(',')).join('\n')}\n`;
  }
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Flat index of a strategy key, validated against the matrix shape. */
export function strategyIndex(w: ScoreMatrix, key: StrategyKey): number {
  if (!Number.isInteger(key.round) || key.round < 1 || key.round > w.rounds) {
    throw new Error(`ScoreMatrix: round ${key.round} outside 1..${w.rounds}`);
  }
  return w.index(w.agentIndex(key.agent), key.round);
}

/**
 * W from pairwise games: each game adds scoreA to cell (a,b) and scoreB to (b,a). A game of a
 * strategy against itself carries no information about W (the diagonal is ignored) and is skipped.
 */
export function fromGames(agents: readonly string[], rounds: number, games: readonly GameResult[]): ScoreMatrix {
  const w = new ScoreMatrix(agents, rounds);
  for (const g of games) {
    if (!Number.isFinite(g.scoreA) || !Number.isFinite(g.scoreB)) throw new Error('fromGames: non-finite score');
    const s = strategyIndex(w, g.a);
    const t = strategyIndex(w, g.b);
    if (s === t) continue;
    w.sums[s * w.size + t]! += g.scoreA;
    w.counts[s * w.size + t]! += 1;
    w.sums[t * w.size + s]! += g.scoreB;
    w.counts[t * w.size + s]! += 1;
  }
  return w;
}

/** W from a ready (T·N)×(T·N) matrix in strategy order (tests, imported results); one "game" per cell. */
export function fromMatrix(
  agents: readonly string[],
  rounds: number,
  values: readonly (readonly (number | null)[])[],
): ScoreMatrix {
  const w = new ScoreMatrix(agents, rounds);
  if (values.length !== w.size || values.some((row) => row.length !== w.size)) {
    throw new Error(`fromMatrix: expected a ${w.size}×${w.size} matrix`);
  }
  values.forEach((row, s) =>
    row.forEach((v, t) => {
      if (v === null || s === t) return;
      if (!Number.isFinite(v)) throw new Error(`fromMatrix: non-finite cell [${s}][${t}]`);
      w.sums[s * w.size + t] = v;
      w.counts[s * w.size + t] = 1;
    }),
  );
  return w;
}
