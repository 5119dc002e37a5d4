// The statistical checks of the suite at full size (the tests run a third of it, seeded):
// interval coverage of S, L and C (tests/intervals-coverage.test.ts: 600 checks per setting),
// rating intervals (150 trials per field), combined intervals over repeats
// (tests/repeats-coverage.test.ts: 150 studies per K) and the SPRT's error rates
// (tests/sprt.test.ts: 1000 runs each). Each line says whether it meets the test's bounds.
// Pure CPU, seeded; a few minutes on one core.
//   npm run bench -- coverage
import {
  coverageOverRepeats,
  DEVELOPING,
  FIELDS,
  intervalCoverage,
  KEYS,
  ratingCoverage,
  trueMeans,
} from '../tests/helpers/coverage-sims.ts';
import { sprtOutcomes } from '../tests/helpers/sprt-sims.ts';

const fmt = (r: Record<string, number>) => KEYS.map((k) => `${k} ${r[k]!.toFixed(3)}`).join(' ');
const verdict = (ok: boolean) => (ok ? 'ok' : 'OUT OF BOUNDS');

export async function benchCoverage() {
  const results: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(FIELDS)) {
    for (const reps of [1, 3]) {
      const c = intervalCoverage(name, field, reps, Math.ceil(600 / field.agents.length));
      const ok = KEYS.every((k) => c[k] > 0.91 && c[k] < 0.985);
      console.log(`intervals ${name}, ${reps} pair(s): ${fmt(c)} ${verdict(ok)}`);
      results[`intervals ${name} reps=${reps}`] = c;
    }
    const r = ratingCoverage(name, field, 150);
    console.log(`ratings ${name}: ${r.share.toFixed(3)} of ${r.checks} ${verdict(r.share > 0.91 && r.share < 0.985)}`);
    results[`ratings ${name}`] = r;
  }
  const truth = trueMeans(DEVELOPING);
  for (const K of [2, 4, 8]) {
    const c = coverageOverRepeats(DEVELOPING, K, 150, truth);
    const ok =
      KEYS.every((k) => c.combined[k] > 0.93 && (K < 8 || c.combined[k] < 0.99)) &&
      c.single.S < 0.8 &&
      c.single.L < 0.7;
    console.log(
      `repeats K=${K}: combined ${fmt(c.combined)} (S width ${c.width.combined.toFixed(3)}); single ${fmt(c.single)} ${verdict(ok)}`,
    );
    results[`repeats K=${K}`] = c;
  }
  const atElo0 = sprtOutcomes(0, { elo0: 0, elo1: 40 }, 1000);
  const atElo1 = sprtOutcomes(40, { elo0: 0, elo1: 40 }, 1000);
  const ok = Math.abs(atElo0.H1 - 0.05) <= 0.03 && Math.abs(atElo1.H0 - 0.05) <= 0.03;
  console.log(`sprt [0, 40], 1000 runs: α ${atElo0.H1.toFixed(3)}, β ${atElo1.H0.toFixed(3)} ${verdict(ok)}`);
  results.sprt = { alpha: atElo0.H1, beta: atElo1.H0 };
  return results;
}
