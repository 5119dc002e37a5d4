// Adaptive vs fixed repetitions on simulated bots with known strengths
// (tests/helpers/simulated-field.ts): how many games `--reps auto --target-width w` needs to bring
// the widest 95% interval of S and L down to w, against the fewest fixed repetitions whose widest
// interval is at most w on average; and how often each gets the true S order of the agents right.
// Also what the default stopping rule (W stable) spends. Pure CPU, seeded.
import { createRng, deriveSeed } from '../util/rng.ts';
import { computeAll } from '../reports/metrics/metrics.ts';
import { fromGames, type GameResult } from '../reports/metrics/score-matrix.ts';
import { AUTO_REPS_DEFAULTS, runAutoReps, widestInterval, type AutoUnit } from '../orchestrator/tourney/auto-reps.ts';
import {
  playPairs,
  simulateTourney,
  strategiesOf,
  trueMatrix,
  type SimulatedField,
} from '../tests/helpers/simulated-field.ts';

const FIELDS: Record<string, SimulatedField> = {
  'chess-like, 4 agents × 3 rounds': {
    agents: ['a', 'b', 'c', 'd'],
    rounds: 3,
    nu: 0.6,
    elo: [
      [-100, -60, -80],
      [0, 50, 120],
      [60, 40, 30],
      [150, 160, 210],
    ],
  },
  'gomoku-like, 3 agents × 4 rounds': {
    agents: ['a', 'b', 'c'],
    rounds: 4,
    nu: 0,
    elo: [
      [-200, -100, 0, 50],
      [0, 20, 40, 60],
      [100, 80, 200, 150],
    ],
  },
};

const SEEDS = 30;

function order(field: SimulatedField, games: readonly GameResult[] | null): string {
  const W = games ? fromGames(field.agents, field.rounds, games) : trueMatrix(field);
  const S = computeAll(W).ranks.S;
  return [...field.agents].sort((a, b) => (S[a] ?? 99) - (S[b] ?? 99) || a.localeCompare(b)).join('>');
}

async function auto(
  field: SimulatedField,
  seed: number,
  targetWidth?: number,
): Promise<{ games: number; widest: number; correct: boolean; reason: string }> {
  const keys = strategiesOf(field);
  const units: AutoUnit[] = keys.flatMap((a, s) =>
    keys.slice(s + 1).map((b) => ({ key: `${a.agent}@${a.round}~${b.agent}@${b.round}`, members: [a, b], cost: 2 })),
  );
  const store = new Map<number, GameResult[]>([[-1, simulateTourney(field, 1, createRng(deriveSeed(seed, 'first')))]]);
  const all = (before: number) => [...store].filter(([b]) => b < before).flatMap(([, g]) => g);
  const log = await runAutoReps(
    {
      agents: field.agents,
      rounds: field.rounds,
      units,
      games: async (before) => ({ results: all(before), played: all(before).length }),
      play: async (picked, batch) => {
        store.set(
          batch,
          picked.flatMap((u) =>
            playPairs(field, u.members[0]!, u.members[1]!, 1, createRng(deriveSeed(seed, u.key, batch)), 1 + batch),
          ),
        );
      },
    },
    {
      fluctuation: AUTO_REPS_DEFAULTS.fluctuation,
      batchShare: AUTO_REPS_DEFAULTS.batchShare,
      maxGames: 40 * units.length * 2,
      targetWidth,
    },
    seed,
  );
  const games = all(Infinity);
  return {
    games: log.games,
    widest: widestInterval(field.agents, field.rounds, games, seed),
    correct: order(field, games) === order(field, null),
    reason: log.stopped!.reason,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function benchRepsAuto() {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(FIELDS)) {
    const pairs = (field.agents.length * field.rounds * (field.agents.length * field.rounds - 1)) / 2;
    // Fixed repetitions: mean widest interval and S-order correctness per r.
    const fixed: Array<{ reps: number; games: number; widest: number; correct: number }> = [];
    for (let r = 1; r <= 16; r *= 2) {
      const widths: number[] = [];
      let correct = 0;
      for (let s = 0; s < SEEDS; s++) {
        const games = simulateTourney(field, r, createRng(deriveSeed('fixed', name, r, s)));
        widths.push(widestInterval(field.agents, field.rounds, games, s));
        if (order(field, games) === order(field, null)) correct++;
      }
      fixed.push({ reps: r, games: r * pairs * 2, widest: mean(widths), correct: correct / SEEDS });
    }
    const targets = [fixed[1]!.widest, fixed[3]!.widest].map((w) => Math.round(w * 100) / 100 + 0.005);
    const adaptive = [];
    for (const target of targets) {
      const runs = [];
      for (let s = 0; s < SEEDS; s++) runs.push(await auto(field, 1000 + s, target));
      // The fixed schedule that reaches the same mean width: the first measured power of two that
      // does, and (widths shrinking as 1/√reps) the fractional reps that would, from the last one that does not.
      const above = fixed.find((f) => f.widest <= target)!;
      const below = [...fixed].reverse().find((f) => f.widest > target)!;
      const interpolatedGames = below.games * (below.widest / target) ** 2;
      adaptive.push({
        targetWidth: target,
        autoGames: mean(runs.map((r) => r.games)),
        autoWidest: mean(runs.map((r) => r.widest)),
        autoCorrectOrder: mean(runs.map((r) => (r.correct ? 1 : 0))),
        fixedRepsReaching: above.reps,
        fixedGames: above.games,
        fixedWidest: above.widest,
        fixedCorrectOrder: above.correct,
        fixedGamesInterpolated: interpolatedGames,
      });
    }
    const stable = [];
    for (let s = 0; s < SEEDS; s++) stable.push(await auto(field, 2000 + s));
    out[name] = {
      firstPassGames: pairs * 2,
      fixed,
      adaptive,
      stableRule: {
        games: mean(stable.map((r) => r.games)),
        widest: mean(stable.map((r) => r.widest)),
        correctOrder: mean(stable.map((r) => (r.correct ? 1 : 0))),
        stoppedStable: stable.filter((r) => r.reason === 'stable').length / SEEDS,
      },
    };
    console.log(`\n${name} (${pairs} pairings, first pass ${pairs * 2} games; ${SEEDS} seeds)`);
    console.log('  fixed reps   games   widest S/L interval   true S order');
    for (const f of fixed)
      console.log(
        `  ${String(f.reps).padStart(9)}  ${String(f.games).padStart(6)}   ${f.widest.toFixed(3).padStart(19)}   ${(100 * f.correct).toFixed(0).padStart(11)}%`,
      );
    for (const a of adaptive) {
      console.log(
        `  target ${a.targetWidth.toFixed(3)}: auto ${a.autoGames.toFixed(0)} games (widest ${a.autoWidest.toFixed(3)}, order ${(100 * a.autoCorrectOrder).toFixed(0)}%) vs fixed ${a.fixedRepsReaching} reps ${a.fixedGames} games (widest ${a.fixedWidest.toFixed(3)}, order ${(100 * a.fixedCorrectOrder).toFixed(0)}%); fixed needs ≈${a.fixedGamesInterpolated.toFixed(0)} games by 1/√reps: auto uses ${((100 * a.autoGames) / a.fixedGamesInterpolated).toFixed(0)}%`,
      );
    }
    const st = out[name] as {
      stableRule: { games: number; widest: number; correctOrder: number; stoppedStable: number };
    };
    console.log(
      `  default rule (W stable, budget 40×): ${st.stableRule.games.toFixed(0)} games, widest ${st.stableRule.widest.toFixed(3)}, order ${(100 * st.stableRule.correctOrder).toFixed(0)}%, stopped by stability in ${(100 * st.stableRule.stoppedStable).toFixed(0)}%`,
    );
  }
  return out;
}
