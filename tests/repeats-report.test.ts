// The combined report over repeats, checked against numbers worked out by hand: mean ± SD over
// repeats, the paper's Table 8 (SD of ranks), Kendall's W and τ, failed builds per repeat, the
// Student's t quantile the combined intervals use, and the Markdown and HTML that show them.
import { describe, expect, it } from 'vitest';
import type { TourneySummary, TrackSummary } from '../records/tourney.ts';
import type { AgentMetrics } from '../records/metrics.ts';
import { combineSummaries, type RepeatInput } from '../reports/combined.ts';
import { renderCombinedMarkdown } from '../reports/markdown-combined.ts';
import { renderCombinedHtml } from '../reports/html/combined-html.ts';
import { calibrate, kendallTau, kendallW, meanSd, studentQuantile } from '../reports/metrics/repeats.ts';
import { compareAgents, formatComparison, signFlipP } from '../reports/compare.ts';

describe('repeats math', () => {
  it("Student's t quantiles match the tables", () => {
    expect(studentQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(studentQuantile(0.975, 3)).toBeCloseTo(3.18245, 4);
    expect(studentQuantile(0.975, 7)).toBeCloseTo(2.36462, 4);
    expect(studentQuantile(0.025, 7)).toBeCloseTo(-2.36462, 4);
    expect(studentQuantile(0.975, 1e6)).toBeCloseTo(1.95996, 4);
  });

  it('mean and SD over repeats skip missing values', () => {
    expect(meanSd([0.5, 0.75, 1])).toEqual({ mean: 0.75, sd: 0.25, n: 3 });
    expect(meanSd([0.5, null])).toEqual({ mean: 0.5, sd: null, n: 1 });
    expect(meanSd([null])).toEqual({ mean: null, sd: null, n: 0 });
  });

  it("Kendall's τ-b and W", () => {
    expect(kendallTau([3, 2, 1], [3, 2, 1])).toBe(1);
    expect(kendallTau([3, 2, 1], [1, 2, 3])).toBe(-1);
    // One discordant pair of three: (2 − 1) / 3.
    expect(kendallTau([3, 2, 1], [3, 1, 2])).toBeCloseTo(1 / 3, 12);
    expect(
      kendallW([
        [3, 2, 1],
        [3, 2, 1],
        [3, 2, 1],
      ]),
    ).toBe(1);
    // Rank sums 1+1+2 = 4, 2+3+1 = 6, 3+2+3 = 8; mean 6; S = 8; W = 12·8 / (9·24) = 4/9.
    expect(
      kendallW([
        [3, 2, 1],
        [3, 1, 2],
        [2, 3, 1],
      ]),
    ).toBeCloseTo(4 / 9, 12);
    expect(kendallW([[1, 2]])).toBeNull();
  });

  it('calibrated samples: the central 95% spans t(K−1)·max(s, √w)/√K around the mean of the repeats', () => {
    // Points 0.4, 0.6 (s² = 0.02); raw samples spread uniformly; w small.
    const raw = Array.from({ length: 1001 }, (_, k) => k / 1000);
    const c = calibrate([0.4, 0.6], raw, 0.0001, 0.95);
    const sorted = c.samples.filter((x): x is number => x !== null).sort((a, b) => a - b);
    const q = (p: number) => sorted[Math.round(p * (sorted.length - 1))]!;
    expect(c.mean).toBeCloseTo(0.5, 12);
    expect((q(0.975) - q(0.025)) / 2).toBeCloseTo(12.7062 * Math.sqrt(0.02 / 2), 2);
    // The floor: repeats that agree exactly still have the games' luck.
    const flat = calibrate([0.5, 0.5], raw, 0.01, 0.95);
    const fs = flat.samples.filter((x): x is number => x !== null).sort((a, b) => a - b);
    expect((fs[Math.round(0.975 * 1000)]! - fs[Math.round(0.025 * 1000)]!) / 2).toBeCloseTo(
      12.7062 * Math.sqrt(0.01 / 2),
      2,
    );
  });
});

// ------------------------------------------------------------------------------------------------
// A hand-computed fixture: 3 agents × 2 rounds, one track, three repeats.

const AGENTS = ['a', 'b', 'c'];

function agentMetrics(S: number, L: number, B: [number, number]): AgentMetrics {
  return {
    S,
    G: [S, S + L],
    L,
    B,
    A: [null, B[1]],
    C: B[1] - B[0],
    self: [0.5, 0.5],
    SI: { value: 0, defined: false },
  };
}

/** One repeat: S, L and B^1, B^2 per agent, and which agents' builds failed. */
function repeat(
  k: number,
  values: Record<string, [number, number, number, number]>,
  failed: string[] = [],
): RepeatInput {
  const perAgent = Object.fromEntries(
    AGENTS.map((a) => [a, agentMetrics(values[a]![0], values[a]![1], [values[a]![2], values[a]![3]])]),
  );
  const iv = (point: number | null) => ({ point, lo: point, hi: point, samples: 1 });
  const track: TrackSummary = {
    game: 'gomoku',
    variant: 'standard',
    agents: AGENTS,
    rounds: 2,
    policy: 'strict',
    W: {
      agents: AGENTS,
      rounds: 2,
      strategies: ['a@1', 'a@2', 'b@1', 'b@2', 'c@1', 'c@2'],
      W: Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? null : 0.5 + 0.05 * k))),
      games: Array.from({ length: 6 }, () => Array(6).fill(2)),
    },
    metrics: {
      perAgent,
      field: {
        sigma: [0.1, 0.2],
        range: [0.3, 0.4],
        meanG: [0.5, 0.5],
        DIS_std: { value: 1, defined: true },
        DIS_range: { value: 1, defined: true },
        Trend_mean: { value: 0, defined: false },
      },
      ranks: { S: {}, L: {}, C: {}, SI: {} },
    },
    bootstrap: {
      samples: 1,
      seed: k,
      level: 0.95,
      method: 'smoothed',
      dispersion: 1,
      perAgent: Object.fromEntries(
        AGENTS.map((a) => [
          a,
          { S: iv(perAgent[a]!.S), L: iv(perAgent[a]!.L), C: iv(perAgent[a]!.C), SI: iv(null), G: [iv(0), iv(0)] },
        ]),
      ),
      rankProbabilities: { S: {}, L: {} },
      above: { S: {}, L: {} },
    },
    elo: {},
    ratings: {
      model: 'davidson',
      anchor: 'a',
      drawParameter: 0,
      dispersion: 1,
      level: 0.95,
      strategies: [],
      agents: AGENTS.map((a, i) => ({ id: a, elo: 100 * i + 10 * k, lo: 0, hi: 0, games: 8 })),
    },
    errors: Object.fromEntries(
      AGENTS.map((a) => [
        a,
        { requests: 100, timeout: k, http_error: 0, malformed: 0, illegal: 0, crash: 0, rate: k / 100 },
      ]),
    ),
    cost: Object.fromEntries(
      AGENTS.map((a) => [a, { wallMs: 1000 * k, toolCalls: 2, tokens: null, linesOfCode: 100 + k, rounds: 2 }]),
    ),
    strategies: AGENTS.flatMap((a) =>
      [1, 2].map((round) => ({
        id: `${a}@r${round}`,
        agent: a,
        round,
        status: failed.includes(`${a}@${round}`) ? ('failed' as const) : ('ok' as const),
        hash: 'x',
      })),
    ),
    games: 30,
    tableWinRates: { round: { 'a@r1': { tables: 4, wins: k, rate: k / 4 } } },
  };
  const S = AGENTS.map((a) => values[a]![0]);
  const L = AGENTS.map((a) => values[a]![1]);
  // Bootstrap samples: the point itself, 10 times (no game luck), so the intervals come from the repeats alone.
  const draws = {
    S: Array(10).fill(S),
    L: Array(10).fill(L),
    C: Array(10).fill(AGENTS.map((a) => perAgent[a]!.C)),
    SI: Array(10).fill(AGENTS.map(() => null)),
    G: Array(10).fill(AGENTS.map((a) => perAgent[a]!.G)),
  };
  const { leaderboard } = {
    leaderboard: [...AGENTS]
      .sort((x, y) => values[y]![0] + values[y]![1] - (values[x]![0] + values[x]![1]))
      .map((agent) => ({ agent, meanRankS: 1, meanRankL: 1, meanS: values[agent]![0], meanL: values[agent]![1] })),
  };
  const summary = {
    runId: `r${k}`,
    runDir: `/x/r${k}`,
    createdAt: '',
    finishedAt: '',
    config: {},
    tracks: [track],
    generalizability: {},
    leaderboard,
  } as TourneySummary;
  return { runId: `r${k}`, runDir: `/x/r${k}`, seed: 10 + k, summary, draws: { 'gomoku-standard': draws } };
}

//                         S     L     B1    B2
const REPEATS = [
  repeat(1, { a: [0.75, 0.1, 0.75, 0.5], b: [0.5, 0.0, 0.5, 0.5], c: [0.25, -0.1, 0.25, 0.5] }),
  repeat(2, { a: [0.5, 0.2, 0.5, 0.75], b: [0.75, -0.1, 0.75, 0.25], c: [0.25, 0.0, 0.25, 0.5] }, ['c@2']),
  repeat(3, { a: [1.0, 0.0, 1.0, 0.25], b: [0.5, 0.1, 0.5, 0.75], c: [0.25, -0.2, 0.25, 0.5] }, ['c@1', 'c@2']),
];

describe('the combined summary of a hand-computed fixture', () => {
  const c = combineSummaries(REPEATS, {
    runId: 'study',
    runDir: '/x/study',
    config: { repeats: 3 },
    samples: 2000,
    seed: 11,
  });
  const t = c.tracks[0]!;

  it('means and SDs over repeats', () => {
    // a's S: 0.75, 0.5, 1 → mean 0.75, SD 0.25; b's L: 0, −0.1, 0.1 → 0, 0.1; c's S: all 0.25 → SD 0.
    expect(t.perAgent.a!.S.mean).toBeCloseTo(0.75, 12);
    expect(t.perAgent.a!.S.sd).toBeCloseTo(0.25, 12);
    expect(t.perAgent.b!.L.mean).toBeCloseTo(0, 12);
    expect(t.perAgent.b!.L.sd).toBeCloseTo(0.1, 12);
    expect(t.perAgent.c!.S.sd).toBe(0);
    // C = B² − B¹: a 0.75 − 0.75 = −0.25, 0.25, −0.75 → mean −0.25, SD 0.5.
    expect(t.perAgent.a!.C.mean).toBeCloseTo(-0.25, 12);
    expect(t.perAgent.a!.C.sd).toBeCloseTo(0.5, 12);
    expect(t.perAgent.b!.elo.mean).toBeCloseTo(120, 12); // 110, 120, 130
    expect(t.perAgent.b!.elo.sd).toBeCloseTo(10, 12);
    expect(t.perAgent.a!.errorRate.mean).toBeCloseTo(0.02, 12);
    expect(t.perAgent.a!.linesOfCode.mean).toBeCloseTo(102, 12);
    expect(t.W.mean[0]![1]).toBeCloseTo(0.6, 12); // 0.55, 0.6, 0.65
    expect(t.W.sd[0]![1]).toBeCloseTo(0.05, 12);
    expect(t.W.mean[0]![0]).toBeNull();
  });

  it('Table 8: the SD of ranks over repeats, per round by B^n and by S and L', () => {
    // Round 1 (B¹) ranks: a 1, 2, 1; b 2, 1, 2; c 3, 3, 3 → SD 0.577…, 0.577…, 0.
    expect(t.perAgent.a!.ranks.B[0]).toEqual([1, 2, 1]);
    expect(t.perAgent.a!.rankSd.B[0]).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(t.perAgent.c!.rankSd.B[0]).toBe(0);
    // Round 2 (B²): repeat 1 all 0.5 except a 0.5 → a, b, c tie at 2; repeat 2 a 1, c 2, b 3; repeat 3 b 1, c 2, a 3.
    expect(t.perAgent.a!.ranks.B[1]).toEqual([2, 1, 3]);
    expect(t.perAgent.a!.rankSd.B[1]).toBeCloseTo(1, 12);
    expect(t.perAgent.c!.ranks.B[1]).toEqual([2, 2, 2]);
    // By L: a 1, 1, 2; b 2, 3, 1; c 3, 2, 3.
    expect(t.perAgent.b!.ranks.L).toEqual([2, 3, 1]);
    expect(t.perAgent.b!.rankSd.L).toBeCloseTo(1, 12);
  });

  it("rank agreement: Kendall's W and mean τ over the repeats", () => {
    // By S: (a, b, c) ranks 1 2 3 · 2 1 3 · 1 2 3 → rank sums 4, 5, 9; mean 6; S = 4 + 1 + 9 = 14; W = 12·14 / (9·24) = 7/9.
    expect(t.agreement.S.W).toBeCloseTo(7 / 9, 12);
    // τ: r1~r2 1/3, r1~r3 1, r2~r3 1/3 → mean 5/9.
    expect(t.agreement.S.tau).toBeCloseTo(5 / 9, 12);
  });

  it("Hold'em's win rates per table kind", () => {
    expect(t.tableWinRates!.round!['a@r1']).toEqual({ mean: 0.5, sd: 0.25, n: 3 });
    expect(renderCombinedMarkdown(c)).toMatch(/## Table win rates[\s\S]*\| a@r1 \| — \| 0\.500 ± 0\.250 \| — \|/);
  });

  it('failed builds per repeat', () => {
    expect(t.perAgent.c!.failedBuilds).toEqual([0, 1, 2]);
    expect(t.perAgent.a!.failedBuilds).toEqual([0, 0, 0]);
  });

  it('combined intervals: with no game luck, mean ± t(2)·SD/√3, clipped to the range; the board ordered by the mean metrics', () => {
    const half = studentQuantile(0.975, 2) * (0.1 / Math.sqrt(3));
    const L = t.intervals.perAgent.b!.L;
    expect(L.point).toBeCloseTo(0, 12);
    expect(L.lo!).toBeCloseTo(-half, 1);
    expect(L.hi!).toBeCloseTo(half, 1);
    expect(L.hi! - L.lo!).toBeGreaterThan(1.6 * half);
    expect(t.intervals.perAgent.a!.S.hi).toBe(1); // 0.75 + 4.30·0.144 > 1
    // c's S is 0.25 in every repeat with no luck at all: a point interval.
    expect(t.intervals.perAgent.c!.S).toMatchObject({ lo: 0.25, hi: 0.25 });
    // Mean S: a 0.75, b 0.583, c 0.25; mean L: a 0.1, b 0, c −0.1 → a, b, c.
    expect(c.leaderboard.map((e) => e.agent)).toEqual(['a', 'b', 'c']);
    expect(c.leaderboard[0]!.S.mean).toBeCloseTo(0.75, 12);
    expect(c.repeats.map((r) => r.seed)).toEqual([11, 12, 13]);
  });

  it('writes Markdown and HTML with every section', () => {
    const md = renderCombinedMarkdown(c);
    for (const heading of [
      'over 3 repeats',
      'Leaderboard (Table 3 layout)',
      'Table 4 layout',
      'Table 8 layout',
      'Rank agreement between repeats',
      'Rank probabilities (combined intervals)',
      'Tables 9–11',
      'Failed builds per repeat',
      'Table 16',
      'Table 17',
      'Score matrices W (mean over repeats)',
    ])
      expect(md).toContain(heading);
    expect(md).toContain('| a | 0.750 ± 0.250 [');
    expect(md).toMatch(/\| gomoku-standard \| a \| 0\.58 \| 1\.00 \| /);
    expect(md).toMatch(/\| gomoku-standard \| c \| 0 \| 1 \| 2 \| 3\/6 \|/);
    const html = renderCombinedHtml(c);
    expect(html).toContain('Rank stability across repeats (Table 8 layout)');
    expect(html).toContain('<svg');
    expect(html).toContain('0.750 ± 0.250');
  });
});

describe('compare: paired differences of two agents over repeats and tracks', () => {
  it('sign-flip p-values are exact', () => {
    // Of the 8 sign patterns of [1, 2, 3] only all + and all − reach |sum| 6.
    expect(signFlipP([1, 2, 3])).toBe(0.25);
    // [1, −1]: every pattern has |sum| ≥ 0.
    expect(signFlipP([1, -1])).toBe(1);
  });

  it('a against c in the fixture: S differences 0.5, 0.25, 0.75', () => {
    const rows = compareAgents(REPEATS, 'a', 'c', { seed: 11 });
    const s = rows.find((r) => r.track === 'gomoku-standard' && r.metric === 'S')!;
    expect(s.repeats).toBe(3);
    expect(s.diff).toBeCloseTo(0.5, 12);
    expect(s.sd).toBeCloseTo(0.25, 12);
    expect(s.p).toBe(0.25);
    expect(s.pBetter).toBeGreaterThan(0.9);
    expect(s.lo!).toBeLessThan(0.25);
    expect(s.hi).toBe(1); // 0.5 + 4.30 · 0.144 clipped to the largest difference
    expect(rows.find((r) => r.track === 'all tracks' && r.metric === 'S')!.diff).toBeCloseTo(0.5, 12);
    expect(formatComparison('a', 'c', rows)).toContain('| gomoku-standard | S | 3 | 0.500 | 0.250 |');
    expect(() => compareAgents(REPEATS, 'a', 'zed')).toThrow(/no track of these runs has both a and zed/);
  });
});
