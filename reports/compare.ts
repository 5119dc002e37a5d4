// `catarena compare A B <run-dir>…`: did agent A score better than agent B? A paired comparison
// over the (repeat, track) units in which both played: per track and overall, the mean difference
// A − B in S and in L, its interval over repeats (the two-level bootstrap of metrics/repeats.ts,
// applied to the difference: development and game luck), a two-sided sign-flip permutation
// p-value over repeats (exact up to 16 repeats), and P(A better) = the share of bootstrap samples
// with a positive difference. The nightly question "did the new version of this agent get better?"
// is this with both versions entered in the same runs (e.g. cli:claude#v1 and cli:claude#v2).
import { trackName, type PairDifference, type PairwiseEntry } from '../records/tourney.ts';
import type { RepeatInput } from './combined.ts';
import { calibrate, meanSd } from './metrics/repeats.ts';
import { createRng, deriveSeed } from '../util/rng.ts';
import { mdTable, num } from './markdown-format.ts';

export interface Comparison {
  track: string;
  metric: 'S' | 'L';
  /** Repeats in which both agents have the metric. */
  repeats: number;
  /** Mean over repeats of A − B, its SD, and the interval. */
  diff: number | null;
  sd: number | null;
  lo: number | null;
  hi: number | null;
  p: number | null;
  pBetter: number | null;
}

/** Two-sided sign-flip permutation p-value of the mean of paired differences (exact over all 2^K flips up to K = 16, else 20 000 random flips). */
export function signFlipP(d: readonly number[], seed = 1): number | null {
  const K = d.length;
  if (!K) return null;
  const observed = Math.abs(d.reduce((a, b) => a + b, 0));
  let extreme = 0;
  let total = 0;
  const rng = createRng(deriveSeed('compare.signflip', seed));
  const flips = K <= 16 ? 2 ** K : 20_000;
  for (let m = 0; m < flips; m++) {
    let sum = 0;
    for (let k = 0; k < K; k++) {
      const negative = K <= 16 ? (m >> k) & 1 : rng.int(0, 1);
      sum += negative ? -d[k]! : d[k]!;
    }
    if (Math.abs(sum) >= observed - 1e-12) extreme++;
    total++;
  }
  return extreme / total;
}

/** One repeat's paired difference on one track (or all tracks): its point and its within-repeat bootstrap samples. */
interface PairedUnit {
  point: number;
  within: (number | null)[];
}

/** Per repeat and track: the point difference a − b of the metric and the within-repeat bootstrap samples of it. */
function pairedUnits(reps: RepeatInput[], names: string[], metric: 'S' | 'L', a: string, b: string) {
  return reps.map((r) =>
    names.map((name): PairedUnit | null => {
      const t = r.summary.tracks.find((x) => trackName(x) === name);
      const draws = r.draws[name];
      if (!t || !draws) return null;
      const ia = t.agents.indexOf(a);
      const ib = t.agents.indexOf(b);
      const pa = t.metrics.perAgent[a]?.[metric];
      const pb = t.metrics.perAgent[b]?.[metric];
      if (pa === null || pa === undefined || pb === null || pb === undefined) return null;
      const within = draws[metric].map((d) =>
        d[ia] === null || d[ib] === null || d[ia] === undefined || d[ib] === undefined ? null : d[ia]! - d[ib]!,
      );
      return { point: pa - pb, within };
    }),
  );
}

/** Overall: per repeat, the mean over the tracks both played (their within samples averaged index by index). */
function overallUnit(u: (PairedUnit | null)[]): PairedUnit | null {
  const present = u.filter((x): x is PairedUnit => x !== null);
  if (!present.length) return null;
  const n = Math.min(...present.map((x) => x.within.length));
  return {
    point: present.reduce((s, x) => s + x.point, 0) / present.length,
    within: Array.from({ length: n }, (_, j) => {
      const vs = present.map((x) => x.within[j]).filter((v): v is number => v !== null && v !== undefined);
      return vs.length ? vs.reduce((s, v) => s + v, 0) / vs.length : null;
    }),
  };
}

interface PairedSettings {
  samples: number;
  level: number;
  seed?: number;
  rng: ReturnType<typeof createRng>;
}

/** The comparison over the repeats' units: a two-level bootstrap (repeat, then a within sample), calibrated. */
function pairedComparison(perRepeat: PairedUnit[], label: string, metric: 'S' | 'L', o: PairedSettings): Comparison {
  const K = perRepeat.length;
  const raw = Array.from({ length: o.samples }, () => {
    let sum = 0;
    let n = 0;
    for (let k = 0; k < K; k++) {
      const u = perRepeat[o.rng.int(0, K - 1)]!;
      const v = u.within[o.rng.int(0, u.within.length - 1)];
      if (v !== null && v !== undefined) {
        sum += v;
        n++;
      }
    }
    return n ? sum / n : null;
  });
  const withinVar = perRepeat.map((u) => meanSd(u.within).sd ?? 0).reduce((x, s) => x + s * s, 0) / K;
  const c = calibrate(
    perRepeat.map((u) => u.point),
    raw,
    withinVar,
    o.level,
  );
  const sorted = c.samples.filter((x): x is number => x !== null).sort((x, y) => x - y);
  const bound = metric === 'S' ? 1 : 2; // a difference of two scores in [0, 1], of two L in [−1, 1]
  const q = (p: number) => {
    const v = sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))];
    return v === undefined ? null : Math.max(-bound, Math.min(bound, v));
  };
  const tail = (1 - o.level) / 2;
  const points = perRepeat.map((u) => u.point);
  return {
    track: label,
    metric,
    repeats: K,
    diff: c.mean,
    sd: meanSd(points).sd,
    lo: q(tail),
    hi: q(1 - tail),
    p: signFlipP(points, o.seed),
    pBetter: sorted.length
      ? sorted.filter((x) => x > 0).length / sorted.length + sorted.filter((x) => x === 0).length / (2 * sorted.length)
      : null,
  };
}

export function compareAgents(
  reps: RepeatInput[],
  a: string,
  b: string,
  options: { samples?: number; seed?: number; level?: number } = {},
): Comparison[] {
  const names = [
    ...new Set(
      reps.flatMap((r) => r.summary.tracks.filter((t) => t.agents.includes(a) && t.agents.includes(b)).map(trackName)),
    ),
  ];
  if (!names.length)
    throw new Error(
      `no track of these runs has both ${a} and ${b} (agents: ${[...new Set(reps.flatMap((r) => r.summary.tracks.flatMap((t) => t.agents)))].join(', ')})`,
    );
  const settings: PairedSettings = {
    samples: options.samples ?? 2000,
    level: options.level ?? 0.95,
    seed: options.seed,
    rng: createRng(deriveSeed('compare', options.seed ?? 1, a, b)),
  };
  const out: Comparison[] = [];
  for (const metric of ['S', 'L'] as const) {
    const units = pairedUnits(reps, names, metric, a, b);
    const add = (label: string, pick: (u: (PairedUnit | null)[]) => PairedUnit | null) => {
      const perRepeat = units.map(pick).filter((u): u is PairedUnit => u !== null);
      if (perRepeat.length) out.push(pairedComparison(perRepeat, label, metric, settings));
    };
    names.forEach((name, k) => add(name, (u) => u[k] ?? null));
    add('all tracks', overallUnit);
  }
  return out;
}

export function formatComparison(a: string, b: string, rows: Comparison[], level = 0.95): string {
  const pct = Math.round(level * 100);
  const table = mdTable(
    [
      'Track',
      'Metric',
      'Repeats',
      `${a} − ${b}`,
      'SD over repeats',
      `${pct}% interval`,
      'p (sign flip)',
      `P(${a} better)`,
    ],
    rows.map((r) => [
      r.track,
      r.metric,
      String(r.repeats),
      num(r.diff),
      num(r.sd),
      r.lo === null ? '—' : `[${num(r.lo)}, ${num(r.hi)}]`,
      num(r.p, 3),
      num(r.pBetter, 2),
    ]),
    2,
  );
  return [
    `${a} against ${b}: paired differences over the repeats (runs) and tracks both played.`,
    '',
    table,
    '',
    `Intervals over repeats cover development and game luck (docs/metrics.md "Intervals over repeats"); p is the two-sided sign-flip permutation test over repeats (with K repeats it cannot be below 2/2^K); P(${a} better) is the share of bootstrap samples with a positive difference.`,
  ].join('\n');
}

/**
 * Every pair of agents (a before b alphabetically) that shares a track in these repeats: the
 * "all tracks" rows of `compareAgents` with the seed `catarena compare` uses, so each entry is
 * what `catarena compare a b <run-dir>` prints for that run or study.
 */
export function pairwiseComparisons(
  reps: RepeatInput[],
  options: { samples?: number; seed?: number } = {},
): PairwiseEntry[] {
  const agents = [...new Set(reps.flatMap((r) => r.summary.tracks.flatMap((t) => t.agents)))].sort();
  const out: PairwiseEntry[] = [];
  for (const [i, a] of agents.entries()) {
    for (const b of agents.slice(i + 1)) {
      if (!reps.some((r) => r.summary.tracks.some((t) => t.agents.includes(a) && t.agents.includes(b)))) continue;
      const rows = compareAgents(reps, a, b, { seed: options.seed ?? reps[0]?.seed, samples: options.samples });
      const pick = (metric: 'S' | 'L'): PairDifference | null => {
        const row = rows.find((r) => r.track === 'all tracks' && r.metric === metric);
        return row ? { diff: row.diff, lo: row.lo, hi: row.hi, p: row.p, pBetter: row.pBetter } : null;
      };
      const S = pick('S');
      const L = pick('L');
      out.push({
        a,
        b,
        repeats: Math.max(0, ...rows.filter((r) => r.track === 'all tracks').map((r) => r.repeats)),
        S,
        L,
      });
    }
  }
  return out;
}
