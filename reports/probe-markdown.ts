// `catarena probe`'s section of report.md: per probed track the consistency matrix, round n vs
// n+1 per agent, code vs LLM-player, and the failures table (docs/probe.md).
import { RUN_DIRS } from '../records/run-layout.ts';
import { mdTable, num, pct } from './markdown-format.ts';
import type { PairConsistency, ProbeTrackResult } from './probe-consistency.ts';

const share = (p: PairConsistency) => `${num(p.value, 2)} (${p.compared})`;

function trackMarkdown(r: ProbeTrackResult): string {
  const { labels, values, compared } = r.matrix;
  const matrix = mdTable(
    ['', ...labels],
    labels.map((label, i) => [
      label,
      ...values[i]!.map((v, j) =>
        v === null ? '—' : `${v.toFixed(2)}${compared[i]![j]! < r.sampled ? ` (${compared[i]![j]})` : ''}`,
      ),
    ]),
  );
  const parts = [
    `### ${r.track}`,
    `${r.sampled} of ${r.candidates} endgame states (seed ${r.seed}): ${r.endgame}. Same action: ${r.actionKey}. ` +
      `Probe time ${(r.wallMs / 1000).toFixed(1)} s for ${r.asks} actions. Files: \`${RUN_DIRS.probe}/${r.track}/\` (consistency.json, .csv, .svg, actions.json).`,
    matrix,
    `![action consistency, ${r.track}](${RUN_DIRS.probe}/${r.track}/consistency.svg)`,
  ];
  if (r.rounds.length)
    parts.push(
      'Round n vs round n+1 per agent:',
      mdTable(
        ['round n', 'round n+1', 'identical (states)'],
        r.rounds.map((p) => [p.a, p.b, share(p)]),
      ),
    );
  if (r.codeVsLlm.length)
    parts.push(
      'Code vs LLM-player:',
      mdTable(
        ['strategy', 'LLM-player', 'identical (states)'],
        r.codeVsLlm.map((p) => [p.a, p.b, share(p)]),
      ),
    );
  const failed = r.failures.filter((f) => f.failed > 0);
  parts.push(
    failed.length
      ? mdTable(
          ['subject', 'failed', 'kinds', 'first message'],
          failed.map((f) => [
            f.subject,
            `${f.failed}/${f.asked} (${pct(f.failed, f.asked)})`,
            Object.entries(f.byKind)
              .map(([k, n]) => `${k} ${n}`)
              .join(', '),
            f.example ?? '',
          ]),
        )
      : 'No bot failed on a probe state.',
  );
  if (r.skipped.length) parts.push(`Not asked: ${r.skipped.map((s) => `${s.subject} (${s.reason})`).join('; ')}`);
  return parts.join('\n\n');
}

/** The probe section of report.md, or '' when the run was never probed. */
export function probeSectionMarkdown(results: readonly ProbeTrackResult[]): string {
  if (!results.length) return '';
  return [
    '## Action consistency on endgame states (catarena probe)',
    "Share of sampled endgame states on which two bots chose the same action (the paper's Figures 3, 6 and 7); the diagonal is a bot against itself asked twice. " +
      'A share is over the states on which neither failed (the count is shown where it is below the states sampled); failures are listed below the matrix. docs/probe.md defines the states and what counts as the same action.',
    ...results.map(trackMarkdown),
  ].join('\n\n');
}
