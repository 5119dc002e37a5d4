// Bots with known true strengths, for checking intervals, ratings and stopping rules by
// simulation: every strategy (agent, round) has a true Elo, and a game between two is drawn from
// the Bradley–Terry–Davidson model (P(a wins) = π_a/D, P(draw) = ν√(π_aπ_b)/D, π = 10^(Elo/400)).
// A tourney is every pair of strategies meeting in colour-swapped pairs, as catarena's rounds
// schedule them; thousands of games cost milliseconds. The true W is the matrix of expected
// scores, so the true value of every metric is known.
import type { Rng } from '../../util/rng.ts';
import { fromMatrix, type GameResult, type ScoreMatrix, type StrategyKey } from '../../reports/metrics/score-matrix.ts';

export interface SimulatedField {
  agents: string[];
  rounds: number;
  /** True Elo of agent i's round-n strategy: elo[i][n − 1]. */
  elo: number[][];
  /** Davidson's draw parameter (0: no draws). */
  nu: number;
}

const strength = (field: SimulatedField, k: StrategyKey) =>
  10 ** (field.elo[field.agents.indexOf(k.agent)]![k.round - 1]! / 400);

/** P(a wins), P(draw) of one game under the model. */
export function outcomeChances(field: SimulatedField, a: StrategyKey, b: StrategyKey): { win: number; draw: number } {
  const pa = strength(field, a);
  const pb = strength(field, b);
  const tie = field.nu * Math.sqrt(pa * pb);
  const d = pa + pb + tie;
  return { win: pa / d, draw: tie / d };
}

export function expectedScore(field: SimulatedField, a: StrategyKey, b: StrategyKey): number {
  const { win, draw } = outcomeChances(field, a, b);
  return win + draw / 2;
}

export function strategiesOf(field: SimulatedField): StrategyKey[] {
  return field.agents.flatMap((agent) => Array.from({ length: field.rounds }, (_, r) => ({ agent, round: r + 1 })));
}

/** The true W: every cell the expected score. */
export function trueMatrix(field: SimulatedField): ScoreMatrix {
  const keys = strategiesOf(field);
  return fromMatrix(
    field.agents,
    field.rounds,
    keys.map((a, s) => keys.map((b, t) => (s === t ? null : expectedScore(field, a, b)))),
  );
}

/** One game's score for a. */
export function playGame(field: SimulatedField, a: StrategyKey, b: StrategyKey, rng: Rng): number {
  const { win, draw } = outcomeChances(field, a, b);
  const u = rng.float();
  return u < win ? 1 : u < win + draw ? 0.5 : 0;
}

/** `reps` colour-swapped pairs between a and b, grouped as the orchestrator groups them; `rep0` numbers the first. */
export function playPairs(
  field: SimulatedField,
  a: StrategyKey,
  b: StrategyKey,
  reps: number,
  rng: Rng,
  rep0 = 0,
): GameResult[] {
  const games: GameResult[] = [];
  for (let rep = rep0; rep < rep0 + reps; rep++) {
    const group = `${a.agent}@${a.round}~${b.agent}@${b.round}#${rep}`;
    const first = playGame(field, a, b, rng);
    const second = playGame(field, b, a, rng);
    games.push(
      { a, b, scoreA: first, scoreB: 1 - first, group },
      { a: b, b: a, scoreA: second, scoreB: 1 - second, group },
    );
  }
  return games;
}

/** Every pair of strategies plays `reps` colour-swapped pairs. */
export function simulateTourney(field: SimulatedField, reps: number, rng: Rng): GameResult[] {
  const keys = strategiesOf(field);
  return keys.flatMap((a, s) => keys.slice(s + 1).flatMap((b) => playPairs(field, a, b, reps, rng)));
}

/**
 * Agents whose every development draws a bot strength: strategy (i, n) gets Elo
 * elo[i][n − 1] + sd[i]·N(0, 1), a new draw in every repeat of the tourney (the agents writing other
 * bots), and the games then follow the Davidson model of those strengths.
 */
export interface DevelopingField extends SimulatedField {
  /** Per agent, the SD (Elo) of a development's strength around elo[i][n − 1]. */
  sd: number[];
}

function gaussian(rng: Rng): number {
  const u = 1 - rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

/** One repeat's developed field: every strategy's strength drawn. */
export function developField(field: DevelopingField, rng: Rng): SimulatedField {
  return {
    agents: field.agents,
    rounds: field.rounds,
    nu: field.nu,
    elo: field.elo.map((row, i) => row.map((e) => e + field.sd[i]! * gaussian(rng))),
  };
}
