// The per-track sections of the Markdown report: learning details (paper Tables 9–11), the score
// matrix W, rank probabilities, ratings with intervals, error rates (Table 16), cost (Table 17)
// and failed strategies.
import { tokenWords } from '../agents/core/prices.ts';
import { trackName, type TrackSummary } from '../records/tourney.ts';
import { corr, duration, MISSING, mdTable, num, pct, withCI } from './markdown-format.ts';

const roundsOf = (t: TrackSummary) => Array.from({ length: t.rounds }, (_, k) => k + 1);

/** Tables 9–11 for one track: G^n and L; B^n, A^n and C; S^n and SI; then the field's trends. */
export function learningDetails(t: TrackSummary): string {
  const rs = roundsOf(t);
  const m = (a: string) => t.metrics.perAgent[a];
  const ci = (a: string) => t.bootstrap.perAgent[a];
  const g = mdTable(
    ['Agent', ...rs.map((n) => `G^${n}`), 'L'],
    t.agents.map((a) => [a, ...rs.map((n) => num(m(a)?.G[n - 1])), withCI(m(a)?.L, ci(a)?.L)]),
  );
  const later = rs.slice(1);
  const b = mdTable(
    ['Agent', ...rs.map((n) => `B^${n}`), ...later.map((n) => `A^${n}`), 'C'],
    t.agents.map((a) => [
      a,
      ...rs.map((n) => num(m(a)?.B[n - 1])),
      ...later.map((n) => num(m(a)?.A[n - 1])),
      withCI(m(a)?.C, ci(a)?.C),
    ]),
  );
  const s = mdTable(
    ['Agent', ...rs.map((n) => `S^${n}`), 'SI'],
    t.agents.map((a) => [a, ...rs.map((n) => num(m(a)?.self[n - 1])), corr(m(a)?.SI)]),
  );
  const f = t.metrics.field;
  const field = mdTable(
    ['Round', 'σ_n of B^n', 'max − min of B^n', 'mean G^n'],
    rs.map((n) => [String(n), num(f.sigma[n - 1]), num(f.range[n - 1]), num(f.meanG[n - 1])]),
  );
  return [
    `### ${trackName(t)}`,
    '',
    `Global performance G^n per round and global learning L (Table 9 layout):`,
    '',
    g,
    '',
    `Base score B^n, advance score A^n and counter-adaptation C (Table 10 layout):`,
    '',
    b,
    '',
    `Self scores S^n against the agent's other rounds and self-improvement SI (Table 11 layout):`,
    '',
    s,
    '',
    'Field trends:',
    '',
    field,
    '',
    `DIS_std = ${corr(f.DIS_std)} · DIS_range = ${corr(f.DIS_range)} · Trend_mean = ${corr(f.Trend_mean)}`,
  ].join('\n');
}

/** W, strategy × strategy: row = the strategy scoring; '·' diagonal, '?' never met. */
export function scoreMatrix(t: TrackSummary): string {
  const labels = t.W.strategies;
  const rows = labels.map((label, s) => [
    label,
    ...labels.map((_, c) => (s === c ? '·' : (t.W.W[s]?.[c] ?? null) === null ? '?' : num(t.W.W[s]![c]!, 2))),
  ]);
  return [`### ${trackName(t)}`, '', mdTable(['W', ...labels], rows)].join('\n');
}

/** Not separable at 95%: the share of samples with this agent ahead of the next is below 0.975. */
export const SEPARABLE = 0.975;

/** "✓ 0.99" when the agent is ahead of the next at 95%, "≈ 0.71" when not; — for the last. */
export function vsNext(p: number | null | undefined): string {
  if (p === null || p === undefined) return MISSING;
  return `${p >= SEPARABLE ? '✓' : '≈'} ${p.toFixed(2)}`;
}

/** Per track and metric (S, L): agents by the point value, the probability of each rank, and whether each is ahead of the next. */
export function rankTable(t: TrackSummary): string {
  const parts = (['S', 'L'] as const).map((key) => {
    const point = (a: string) => t.metrics.perAgent[a]?.[key] ?? null;
    const order = t.agents.filter((a) => point(a) !== null).sort((a, b) => point(b)! - point(a)! || a.localeCompare(b));
    if (!order.length) return `${key}: no values.`;
    const probs = t.bootstrap.rankProbabilities[key];
    const rows = order.map((a, k) => [
      a,
      withCI(point(a), t.bootstrap.perAgent[a]?.[key]),
      ...order.map((_, r) => num(probs[a]?.[r], 2)),
      vsNext(k + 1 < order.length ? t.bootstrap.above[key]?.[a]?.[order[k + 1]!] : null),
    ]);
    return [
      `${key} (${key === 'S' ? 'strategy coding' : 'global learning'}):`,
      '',
      mdTable(['Agent', key, ...order.map((_, r) => `P(rank ${r + 1})`), 'ahead of next'], rows),
    ].join('\n');
  });
  return [`### ${trackName(t)}`, '', ...parts.flatMap((p) => [p, ''])].join('\n').trimEnd();
}

/** Ratings per strategy and per agent with intervals, and what the scale is anchored on. */
export function ratingsTable(t: TrackSummary): string {
  const r = t.ratings;
  if (!r) return [`### ${trackName(t)}`, '', 'No ratings.'].join('\n');
  const pct = Math.round(r.level * 100);
  const row = (x: (typeof r.strategies)[number]) => [
    x.id,
    num(x.elo, 1),
    x.lo === x.hi ? 'anchor' : `[${num(x.lo, 0)}, ${num(x.hi, 0)}]`,
    String(x.games),
  ];
  const byElo = <T extends { elo: number; id: string }>(xs: T[]) =>
    [...xs].sort((a, b) => b.elo - a.elo || a.id.localeCompare(b.id));
  return [
    `### ${trackName(t)}`,
    '',
    `Elo 0 = ${r.anchor === 'mean' ? 'the mean of the rated players' : `${r.anchor} (anchor)`} · draw parameter ν = ${num(r.drawParameter, 3)} · dispersion φ = ${num(r.dispersion, 2)} · ${pct}% intervals.`,
    '',
    mdTable(['Strategy', 'Elo', `${pct}% interval`, 'Games'], byElo(r.strategies).map(row)),
    ...(r.agents.length
      ? [
          '',
          'Per agent (all its rounds as one player):',
          '',
          mdTable(['Agent', 'Elo', `${pct}% interval`, 'Games'], byElo(r.agents).map(row)),
        ]
      : []),
  ].join('\n');
}

const TABLE_KINDS = ['own', 'round', 'field'] as const;

/** wins/tables as "0.625 (5/8)"; a split win's share shows with 2 decimals. */
function winRateCell(w: { tables: number; wins: number; rate: number } | undefined): string {
  if (!w || w.tables === 0) return MISSING;
  const wins = Number.isInteger(w.wins) ? String(w.wins) : w.wins.toFixed(2);
  return `${num(w.rate)} (${wins}/${w.tables})`;
}

/**
 * Hold'em's paper figures for one track: each strategy's win rate at its own / round / field
 * tables (tables won ÷ played). Empty when the track has no batch tables.
 */
export function tableWinRatesTable(t: TrackSummary): string {
  const rates = t.tableWinRates;
  if (!rates) return '';
  const seen = new Set(TABLE_KINDS.flatMap((k) => Object.keys(rates[k] ?? {})));
  // Strategy order (agent, round) as in the track, then any other id that sat at a table.
  const ids = [
    ...t.strategies.map((s) => s.id).filter((id) => seen.has(id)),
    ...[...seen].filter((id) => !t.strategies.some((s) => s.id === id)).sort(),
  ];
  const rows = ids.map((id) => [id, ...TABLE_KINDS.map((k) => winRateCell(rates[k]?.[id]))]);
  return [
    `### ${trackName(t)}`,
    '',
    rows.length ? mdTable(['Strategy', 'Own tables', 'Round tables', 'Field tables'], rows) : 'No tables played.',
  ].join('\n');
}

/** One agent's requests, then each failure kind as a share of them and the error rate (Table 16's cells; report.html's too). */
export function errorRateCells(e: TrackSummary['errors'][string]): string[] {
  return [
    String(e.requests),
    pct(e.timeout, e.requests),
    pct(e.http_error, e.requests),
    pct(e.malformed, e.requests),
    pct(e.illegal, e.requests),
    pct(e.crash, e.requests),
    e.requests > 0 ? `${(100 * e.rate).toFixed(2)}%` : MISSING,
  ];
}

/** Table 16: every kind as a share of the agent's requests (moves asked + joins). */
export function errorRows(tracks: TrackSummary[]): string {
  const rows = tracks.flatMap((t) =>
    Object.entries(t.errors).map(([agent, e]) => [trackName(t), agent, ...errorRateCells(e)]),
  );
  if (!rows.length) return 'No requests recorded.';
  return mdTable(
    ['Track', 'Agent', 'Requests', 'Timeout', 'HTTP error', 'Malformed', 'Illegal', 'Crash', 'Error rate'],
    rows,
    2,
  );
}

/** Table 17: development cost summed over each agent's rounds. */
export function costRows(tracks: TrackSummary[]): string {
  const rows = tracks.flatMap((t) =>
    Object.entries(t.cost).map(([agent, c]) => [
      trackName(t),
      agent,
      String(c.rounds),
      c.rateLimitWaitMs
        ? `${duration(c.wallMs)} (${duration(c.rateLimitWaitMs)} waiting on rate limits)`
        : duration(c.wallMs),
      String(c.toolCalls),
      c.tokens ? tokenWords(c.tokens) : MISSING,
      String(c.linesOfCode),
    ]),
  );
  if (!rows.length) return 'No cost recorded.';
  return mdTable(['Track', 'Agent', 'Rounds', 'Wall time', 'Tool calls', 'Tokens', 'Lines of code'], rows, 2);
}

export function failedStrategies(tracks: TrackSummary[]): string {
  const failed = tracks.flatMap((t) =>
    t.strategies.filter((s) => s.status === 'failed').map((s) => ({ track: trackName(t), ...s })),
  );
  if (!failed.length) return 'None: every strategy built and validated.';
  return failed
    .map((s) => `- ${s.track} · \`${s.id}\`: ${(s.failure ?? 'no reason recorded').replace(/\s+/g, ' ').slice(0, 300)}`)
    .join('\n');
}

export function validationWarnings(tracks: TrackSummary[]): string {
  const warned = tracks.flatMap((t) =>
    t.strategies.filter((s) => s.warnings?.length).map((s) => ({ track: trackName(t), ...s })),
  );
  if (!warned.length) return 'None.';
  return warned
    .flatMap((s) => [
      `- ${s.track} · \`${s.id}\`: ${s.warnings!.length} warning${s.warnings!.length > 1 ? 's' : ''}`,
      ...s.warnings!.slice(0, 4).map((w) => `  - ${w.replace(/\s+/g, ' ').slice(0, 240)}`),
    ])
    .join('\n');
}
