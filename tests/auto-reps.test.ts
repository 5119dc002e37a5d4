// The adaptive-repetitions engine on simulated bots with known strengths: it stops by the paper's
// criterion, by an interval width or by its budget and says which; it spends its games where the
// metrics are least certain; and a run killed in the middle of a batch resumes to the same end.
import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed } from '../util/rng.ts';
import type { GameResult } from '../reports/metrics/score-matrix.ts';
import {
  AUTO_REPS_DEFAULTS,
  runAutoReps,
  widestInterval,
  type AutoRepsDriver,
  type AutoRepsSettings,
  type AutoUnit,
} from '../orchestrator/tourney/auto-reps.ts';
import { playPairs, simulateTourney, strategiesOf, type SimulatedField } from './helpers/simulated-field.ts';

const FIELD: SimulatedField = {
  agents: ['a', 'b', 'c'],
  rounds: 3,
  nu: 0.3,
  elo: [
    [-100, -40, -60],
    [0, 60, 140],
    [80, 60, 50],
  ],
};

/** A driver over simulated games: the first pass is one pair per pairing; batch b plays repetition 1 + b of each unit picked. */
function simulatedDriver(
  field: SimulatedField,
  seed: number,
  store = new Map<number, GameResult[]>(),
  killAt?: { batch: number; after: number },
): AutoRepsDriver & { store: Map<number, GameResult[]> } {
  const keys = strategiesOf(field);
  const units: AutoUnit[] = keys.flatMap((a, s) =>
    keys.slice(s + 1).map((b) => ({ key: `${a.agent}@${a.round}~${b.agent}@${b.round}`, members: [a, b], cost: 2 })),
  );
  if (!store.has(-1)) store.set(-1, simulateTourney(field, 1, createRng(deriveSeed(seed, 'first'))));
  return {
    store,
    agents: field.agents,
    rounds: field.rounds,
    units,
    async games(before) {
      const results = [...store.entries()].filter(([b]) => b < before).flatMap(([, g]) => g);
      return { results, played: results.length };
    },
    async play(picked, batch) {
      const played = store.get(batch) ?? [];
      const done = new Set(played.map((g) => g.group));
      let count = 0;
      for (const unit of picked) {
        const [a, b] = unit.members as [(typeof keys)[0], (typeof keys)[0]];
        // Every unit's repetition has its own seed, as a match spec has: a replay is the same game.
        const games = playPairs(field, a, b, 1, createRng(deriveSeed(seed, unit.key, batch)), 1 + batch);
        if (done.has(games[0]!.group)) continue;
        if (killAt && killAt.batch === batch && count++ >= killAt.after) {
          store.set(batch, played);
          throw new Error('killed');
        }
        played.push(...games);
      }
      store.set(batch, played);
    },
  };
}

const settings = (over: Partial<AutoRepsSettings> = {}): AutoRepsSettings => ({
  fluctuation: AUTO_REPS_DEFAULTS.fluctuation,
  batchShare: AUTO_REPS_DEFAULTS.batchShare,
  maxGames: 20_000,
  ...over,
});

describe('adaptive repetitions on simulated bots', () => {
  it('plays batches until the L1 fluctuation of W over the pairs a batch played is below 5% twice in a row, and says so', async () => {
    const driver = simulatedDriver(FIELD, 1);
    const log = await runAutoReps(driver, settings());
    expect(log.stopped?.reason).toBe('stable');
    expect(log.stopped?.detail).toMatch(
      /L1 fluctuation over the pairs batches \d+ and \d+ played is \d+\.\d% and \d+\.\d%, both < 5\.0%/,
    );
    expect(log.firstPass).toBe(36 * 2);
    expect(log.games).toBeGreaterThan(log.firstPass);
    const f = log.batches.map((b) => b.fluctuation!);
    expect(f.at(-1)!).toBeLessThan(0.05);
    expect(f.at(-2)!).toBeLessThan(0.05);
    // It did not stop earlier: no two successive batches were both below 5% before.
    for (let k = 1; k < f.length - 1; k++) expect(f[k - 1]! < 0.05 && f[k]! < 0.05).toBe(false);
    // Each batch plays a quarter of the 36 pairings.
    for (const b of log.batches) expect(b.units).toHaveLength(9);
  });

  it('stops at an interval width when one is asked for', async () => {
    const driver = simulatedDriver(FIELD, 2);
    const log = await runAutoReps(driver, settings({ targetWidth: 0.3 }));
    expect(log.stopped?.reason).toBe('width');
    expect(log.maxWidth!).toBeLessThanOrEqual(0.3);
    expect(widestInterval(FIELD.agents, FIELD.rounds, (await driver.games(Infinity)).results, 1)).toBeLessThanOrEqual(
      0.3,
    );
    expect(log.batches.length).toBeGreaterThan(0);
  });

  it('stops at its budget of games', async () => {
    const driver = simulatedDriver(FIELD, 3);
    const log = await runAutoReps(driver, settings({ maxGames: 72 + 40 }));
    expect(log.stopped).toEqual({ reason: 'budget', detail: expect.stringMatching(/budget of 112 games is spent/) });
    expect(log.games).toBeLessThanOrEqual(112);
    expect(log.games).toBeGreaterThan(100);
  });

  it('puts its games where the metrics are least certain', async () => {
    // Pairs between round-1 strategies of different agents carry S (and G^1, L, C); pairs
    // between an agent's own rounds enter only the G terms. The first batches favour the former.
    const driver = simulatedDriver(FIELD, 4);
    const log = await runAutoReps(driver, settings({ maxGames: 72 + 18 }));
    const first = log.batches[0]!.units;
    const roundOneCross = first.filter((k) => /^(\w)@1~(?!\1)\w@1$/.test(k)).length;
    expect(roundOneCross).toBe(3); // all three S pairs: a@1~b@1, a@1~c@1, b@1~c@1
  });

  it('resumes a run killed in the middle of a batch to the same end', async () => {
    const whole = await runAutoReps(simulatedDriver(FIELD, 5), settings());
    const store = new Map<number, GameResult[]>();
    await expect(runAutoReps(simulatedDriver(FIELD, 5, store, { batch: 2, after: 4 }), settings())).rejects.toThrow(
      'killed',
    );
    expect(store.get(2)).toHaveLength(8); // 4 of batch 3's 9 pairs made it before the kill
    const resumed = await runAutoReps(simulatedDriver(FIELD, 5, store), settings());
    expect(resumed).toEqual(whole);
  });
});
