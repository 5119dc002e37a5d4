// report.md of a study of repeated tourneys (`--repeats`, `catarena combine`): the single run's
// tables as mean ± SD over the repeats, the paper's Table 8 (SD of ranks), rank agreement, build
// failures per repeat, and the combined intervals (development and games) with rank probabilities.
import { trackName } from '../records/tourney.ts';
import { opponentCodeLine } from '../records/opponent-code.ts';
import type { Interval } from '../records/metrics.ts';
import type { MeanSd } from './metrics/repeats.ts';
import type { CombinedSummary, CombinedTrack } from './combined.ts';
import { duration, MISSING, mdTable, num, textTable } from './markdown-format.ts';
import { vsNext } from './markdown-tracks.ts';

/** `0.625 ± 0.081`; the SD is left out with one value. */
export function pm(x: MeanSd | undefined, digits = 3): string {
  if (!x || x.mean === null) return MISSING;
  return x.sd === null ? num(x.mean, digits) : `${num(x.mean, digits)} ± ${num(x.sd, digits)}`;
}

/** `0.625 ± 0.081 [0.41, 0.83]`: mean ± SD over repeats and the combined interval. */
export function pmCI(x: MeanSd | undefined, iv?: Interval): string {
  const text = pm(x);
  if (!iv || iv.lo === null || iv.hi === null || text === MISSING) return text;
  return `${text} [${iv.lo.toFixed(2)}, ${iv.hi.toFixed(2)}]`;
}

const unique = <T>(xs: T[]) => [...new Set(xs)];
const roundsOf = (t: CombinedTrack) => Array.from({ length: t.rounds }, (_, k) => k + 1);

function header(c: CombinedSummary): string {
  const K = c.repeats.length;
  return [
    `# CATArena tournament report over ${K} repeats: ${c.runId}`,
    '',
    `- Directory: \`${c.runDir}\``,
    `- Finished: ${c.finishedAt}`,
    `- Repeats (each a whole develop-and-play tourney with its own seed; its own report is in its folder):`,
    ...c.repeats.map((r) => `  - ${r.index}: seed ${r.seed}, ${r.games} games, \`${r.runDir}\``),
    `- Agents: ${unique(c.tracks.flatMap((t) => t.agents)).join(', ') || MISSING}`,
    `- Tracks: ${c.tracks.map(trackName).join(', ') || MISSING}`,
    `- ${opponentCodeLine(c.config)}`,
    '',
    `Every number is the mean over the ${K} repeats ± its standard deviation (the paper averages its four repeats). ` +
      `Brackets: ${Math.round(c.level * 100)}% intervals for the mean that cover both the agents' development (other bots in another repeat) and the games' luck: ` +
      `a two-level bootstrap (repeats resampled, then games within each), scaled by Student's t with ${K - 1} df (docs/metrics.md "Intervals over repeats"). ` +
      `Leaderboard, rank probabilities and "≈" (not separable from the next at 95%) use those intervals.`,
    ...(K < 4
      ? [
          '',
          `> With ${K} repeat(s) the spread of development is barely measured: the intervals are wide on purpose. The paper uses 4.`,
        ]
      : []),
  ].join('\n');
}

function leaderboardSection(c: CombinedSummary): string {
  const rows = c.leaderboard.map((e, k) => [
    String(k + 1),
    e.agent,
    num(e.meanRankS),
    num(e.meanRankL),
    pm(e.S),
    pm(e.L),
    pm(e.place, 2),
    num(e.rankProbabilities?.[k], 2),
    vsNext(e.aboveNext),
  ]);
  const a = c.leaderboardAgreement;
  return [
    '## Leaderboard (Table 3 layout)',
    '',
    `Average rank over ${c.tracks.length} track(s) of the mean metrics (1 = best); Mean S and Mean L: mean ± SD over repeats of each repeat's own mean; Place: mean ± SD of the agent's place in each repeat's leaderboard. ` +
      'P(place) and "ahead of next" come from the combined samples.',
    '',
    rows.length
      ? mdTable(
          [
            '#',
            'Agent',
            'Avg rank S',
            'Avg rank L',
            'Mean S',
            'Mean L',
            'Place (repeats)',
            'P(place)',
            'ahead of next',
          ],
          rows,
          2,
        )
      : 'No agents.',
    '',
    `Agreement of the repeats' leaderboards: Kendall's W = ${num(a.W)}, mean Kendall τ = ${num(a.tau)}.`,
  ].join('\n');
}

function table4(c: CombinedSummary): string {
  const games = unique(c.tracks.map((t) => t.game));
  const parts = games.map((g) => {
    const tracks = c.tracks.filter((t) => t.game === g);
    const agents = unique(tracks.flatMap((t) => t.agents));
    const hasU = tracks.some((t) => t.agents.some((a) => t.perAgent[a]?.U));
    const head = [
      'Agent',
      ...tracks.flatMap((t) => [`${t.variant} S.C.`, `${t.variant} G.L.`]),
      ...(hasU ? ['G.A.'] : []),
    ];
    const rows = agents.map((a) => [
      a,
      ...tracks.flatMap((t) => [
        pmCI(t.perAgent[a]?.S, t.intervals.perAgent[a]?.S),
        pmCI(t.perAgent[a]?.L, t.intervals.perAgent[a]?.L),
      ]),
      ...(hasU ? [pm(tracks.find((t) => t.perAgent[a]?.U)?.perAgent[a]?.U)] : []),
    ]);
    return [`### ${g}`, '', mdTable(head, rows)].join('\n');
  });
  return [
    '## Strategy coding, global learning and generalizability (Table 4 layout)',
    ...(parts.length ? parts : ['No tracks.']),
  ].join('\n\n');
}

/** Paper Table 8: SD of each agent's rank across repeats, per track: by round (B^n), by S and L. */
export function table8(c: CombinedSummary): string {
  const maxRounds = Math.max(0, ...c.tracks.map((t) => t.rounds));
  const rounds = Array.from({ length: maxRounds }, (_, k) => k + 1);
  const rows = c.tracks.flatMap((t) =>
    t.agents.map((a) => {
      const sd = t.perAgent[a]!.rankSd;
      return [trackName(t), a, ...rounds.map((n) => num(sd.B[n - 1], 2)), num(sd.S, 2), num(sd.L, 2)];
    }),
  );
  const meanOf = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  const all = c.tracks.flatMap((t) => t.agents.map((a) => t.perAgent[a]!.rankSd));
  rows.push([
    'all tracks',
    'mean',
    ...rounds.map((n) => num(meanOf(all.map((s) => s.B[n - 1] ?? null)), 2)),
    num(meanOf(all.map((s) => s.S)), 2),
    num(meanOf(all.map((s) => s.L)), 2),
  ]);
  return [
    '## Rank stability across repeats (Table 8 layout)',
    '',
    "Standard deviation over the repeats of each agent's rank (1 = best, ties share the mean rank): in round n by its round-n bot's base score B^n (the round's own tournament), and over all rounds by S and by L. 0 = the same rank in every repeat.",
    '',
    rows.length > 1 ? mdTable(['Track', 'Agent', ...rounds.map((n) => `round ${n}`), 'S', 'L'], rows, 2) : 'No tracks.',
  ].join('\n');
}

function agreementSection(c: CombinedSummary): string {
  const maxRounds = Math.max(0, ...c.tracks.map((t) => t.rounds));
  const rounds = Array.from({ length: maxRounds }, (_, k) => k + 1);
  const cell = (a?: { W: number | null; tau: number | null }) => (a ? `${num(a.W, 2)} / ${num(a.tau, 2)}` : MISSING);
  const rows = c.tracks.map((t) => [
    trackName(t),
    cell(t.agreement.S),
    cell(t.agreement.L),
    ...rounds.map((n) => cell(t.agreement.B[n - 1])),
  ]);
  return [
    '## Rank agreement between repeats',
    '',
    "Kendall's W (coefficient of concordance over all repeats; 1 = every repeat ranks the agents alike, 0 = no agreement) / mean Kendall τ-b over pairs of repeats (−1 to 1), of the rankings by S, by L and by each round's B^n.",
    '',
    rows.length
      ? mdTable(['Track', 'S: W / τ', 'L: W / τ', ...rounds.map((n) => `B^${n}: W / τ`)], rows)
      : 'No tracks.',
  ].join('\n');
}

function ranksSection(c: CombinedSummary): string {
  const parts = c.tracks.map((t) => {
    const tables = (['S', 'L'] as const).map((key) => {
      const point = (a: string) => t.perAgent[a]?.[key].mean ?? null;
      const order = t.agents
        .filter((a) => point(a) !== null)
        .sort((a, b) => point(b)! - point(a)! || a.localeCompare(b));
      if (!order.length) return `${key}: no values.`;
      const probs = t.intervals.rankProbabilities[key];
      const rows = order.map((a, k) => [
        a,
        pmCI(t.perAgent[a]?.[key], t.intervals.perAgent[a]?.[key]),
        ...order.map((_, r) => num(probs[a]?.[r], 2)),
        vsNext(k + 1 < order.length ? t.intervals.above[key][a]?.[order[k + 1]!] : null),
      ]);
      return [
        `${key}:`,
        '',
        mdTable(['Agent', key, ...order.map((_, r) => `P(rank ${r + 1})`), 'ahead of next'], rows),
      ].join('\n');
    });
    return [`### ${trackName(t)}`, '', ...tables.flatMap((x) => [x, ''])].join('\n').trimEnd();
  });
  return [
    '## Rank probabilities (combined intervals)',
    'Agents by the mean over repeats; P(rank r) = share of the combined samples with that rank.',
    ...parts,
  ].join('\n\n');
}

function learning(c: CombinedSummary): string {
  const parts = c.tracks.map((t) => {
    const rs = roundsOf(t);
    const later = rs.slice(1);
    const m = (a: string) => t.perAgent[a]!;
    const iv = (a: string) => t.intervals.perAgent[a];
    const f = t.field;
    return [
      `### ${trackName(t)}`,
      '',
      'Global performance G^n and global learning L (Table 9 layout):',
      '',
      mdTable(
        ['Agent', ...rs.map((n) => `G^${n}`), 'L'],
        t.agents.map((a) => [a, ...rs.map((n) => pm(m(a).G[n - 1])), pmCI(m(a).L, iv(a)?.L)]),
      ),
      '',
      'Base score B^n, advance score A^n and counter-adaptation C (Table 10 layout):',
      '',
      mdTable(
        ['Agent', ...rs.map((n) => `B^${n}`), ...later.map((n) => `A^${n}`), 'C'],
        t.agents.map((a) => [
          a,
          ...rs.map((n) => pm(m(a).B[n - 1])),
          ...later.map((n) => pm(m(a).A[n - 1])),
          pmCI(m(a).C, iv(a)?.C),
        ]),
      ),
      '',
      'Self scores S^n and self-improvement SI (Table 11 layout; SI over the repeats where it is defined):',
      '',
      mdTable(
        ['Agent', ...rs.map((n) => `S^${n}`), 'SI'],
        t.agents.map((a) => [a, ...rs.map((n) => pm(m(a).self[n - 1])), pmCI(m(a).SI, iv(a)?.SI)]),
      ),
      '',
      mdTable(
        ['Round', 'σ_n of B^n', 'max − min of B^n', 'mean G^n'],
        rs.map((n) => [String(n), pm(f.sigma[n - 1]), pm(f.range[n - 1]), pm(f.meanG[n - 1])]),
      ),
      '',
      `DIS_std = ${pm(f.DIS_std)} · DIS_range = ${pm(f.DIS_range)} · Trend_mean = ${pm(f.Trend_mean)} (over the repeats where defined)`,
    ].join('\n');
  });
  return ['## Learning details (Tables 9–11 layout)', ...parts].join('\n\n');
}

function builds(c: CombinedSummary): string {
  const K = c.repeats.length;
  const rows = c.tracks.flatMap((t) =>
    t.agents.map((a) => {
      const f = t.perAgent[a]!.failedBuilds;
      const total = f.reduce((x, y) => x + y, 0);
      return [trackName(t), a, ...f.map(String), `${total}/${K * t.rounds}`];
    }),
  );
  return [
    '## Failed builds per repeat',
    '',
    "Strategies (of the agent's rounds) that failed to build or validate and played as forfeiting stand-ins, per repeat.",
    '',
    rows.length ? mdTable(['Track', 'Agent', ...c.repeats.map((r) => `repeat ${r.index}`), 'all'], rows, 2) : 'None.',
  ].join('\n');
}

function operations(c: CombinedSummary): string {
  const errors = c.tracks.flatMap((t) => t.agents.map((a) => [trackName(t), a, pm(t.perAgent[a]!.errorRate, 4)]));
  const cost = c.tracks.flatMap((t) =>
    t.agents.map((a) => {
      const p = t.perAgent[a]!;
      const wall =
        p.wallMs.mean === null
          ? MISSING
          : `${duration(p.wallMs.mean)}${p.wallMs.sd === null ? '' : ` ± ${duration(p.wallMs.sd)}`}`;
      return [trackName(t), a, wall, pm(p.toolCalls, 1), pm(p.linesOfCode, 0)];
    }),
  );
  const elo = c.tracks.flatMap((t) => t.agents.map((a) => [trackName(t), a, pm(t.perAgent[a]!.elo, 0)]));
  return [
    '## HTTP error rates per agent (Table 16 layout)',
    '',
    "Share of the agent's bot requests that failed, mean ± SD over repeats.",
    '',
    errors.length ? mdTable(['Track', 'Agent', 'Error rate'], errors, 2) : 'None.',
    '',
    '## Cost per agent (Table 17 layout)',
    '',
    "Summed over the agent's rounds in a repeat; mean ± SD over repeats.",
    '',
    cost.length ? mdTable(['Track', 'Agent', 'Wall time', 'Tool calls', 'Lines of code'], cost, 2) : 'None.',
    '',
    '## Agent ratings',
    '',
    "Each repeat's Bradley–Terry–Davidson Elo of the agent (all its rounds as one player), mean ± SD over repeats (each repeat anchored as its own report says).",
    '',
    elo.length ? mdTable(['Track', 'Agent', 'Elo'], elo, 2) : 'None.',
  ].join('\n');
}

function tableWinRates(c: CombinedSummary): string[] {
  const tracks = c.tracks.filter((t) => t.tableWinRates);
  if (!tracks.length) return [];
  const kinds = ['own', 'round', 'field'];
  const parts = tracks.map((t) => {
    const ids = [...new Set(kinds.flatMap((k) => Object.keys(t.tableWinRates![k] ?? {})))];
    return [
      `### ${trackName(t)}`,
      '',
      mdTable(
        ['Strategy', 'Own tables', 'Round tables', 'Field tables'],
        ids.map((id) => [id, ...kinds.map((k) => pm(t.tableWinRates![k]?.[id]))]),
      ),
    ].join('\n');
  });
  return [
    [
      "## Table win rates (paper figures for Hold'em)",
      'Tables won ÷ tables played per table kind, mean ± SD over repeats (docs/metrics.md "Batch games").',
      ...parts,
    ].join('\n\n'),
  ];
}

function matrices(c: CombinedSummary): string {
  const parts = c.tracks.map((t) => {
    const labels = t.W.strategies;
    const rows = labels.map((label, s) => [
      label,
      ...labels.map((_, k) =>
        s === k ? '·' : t.W.mean[s]?.[k] === null || t.W.mean[s]?.[k] === undefined ? '?' : num(t.W.mean[s]![k]!, 2),
      ),
    ]);
    return [`### ${trackName(t)}`, '', mdTable(['W', ...labels], rows)].join('\n');
  });
  return [
    '## Score matrices W (mean over repeats)',
    'Row = the strategy scoring (agent@round), 2 decimals; the SD of each cell is in combined.json.',
    ...parts,
  ].join('\n\n');
}

export function renderCombinedMarkdown(c: CombinedSummary): string {
  return `${[header(c), leaderboardSection(c), table4(c), table8(c), agreementSection(c), ranksSection(c), learning(c), builds(c), operations(c), matrices(c), ...tableWinRates(c)].join('\n\n')}\n`;
}

/** The terminal's short board at the end of `--repeats` / `combine`. */
export function renderCombinedLeaderboard(c: CombinedSummary): string {
  const rows = [['#  agent', 'rank S', 'rank L', 'mean S', 'mean L', 'place (repeats)']];
  c.leaderboard.forEach((e, k) =>
    rows.push([
      `${String(k + 1).padEnd(2)} ${e.agent}`,
      num(e.meanRankS, 2),
      num(e.meanRankL, 2),
      pm(e.S),
      pm(e.L),
      pm(e.place, 2),
    ]),
  );
  return [
    `Leaderboard over ${c.repeats.length} repeats (mean ± SD): mean rank over ${c.tracks.length} track(s), 1 = best`,
    ...textTable(rows),
  ].join('\n');
}
