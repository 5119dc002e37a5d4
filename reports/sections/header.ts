// The report's head: what ran (agents, games, rule sets, rounds, settings, the model table), the
// journal's integrity, the run's alarms and the LLM-players' decisions, then how to read the numbers.
import { integrityLine } from '../../records/journal-integrity.ts';
import { MODEL_TABLE_AS_OF, overlayEntries, type ModelTableOverlay } from '../../agents/core/models.ts';
import { gameDescriptor, gameIds } from '../../games/registry.ts';
import { recordingsLine, trackName, type TourneySummary } from '../../records/tourney.ts';
import { opponentCodeLine } from '../../records/opponent-code.ts';
import { budgetAlarmLines } from '../cost-by-round.ts';
import { fallbackAlarmLines, llmPlayerRows, llmPlayerSamplingLines } from '../llm-player-use.ts';
import { integrityAlarmLines } from '../integrity.ts';
import { sandboxAlarmLines } from '../sandbox-alarm.ts';
import { agentsWithoutBot, everyBuildFailed } from '../summary.ts';
import { buildAlarmLines } from '../alarms.ts';
import { mdTable } from '../markdown-format.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import type { ReportSection } from './types.ts';

const unique = <T>(xs: T[]) => [...new Set(xs)];

/** One line of the config's settings; nested values as compact JSON. */
function configLine(config: unknown): string {
  if (config === null || typeof config !== 'object') return config === undefined ? '—' : JSON.stringify(config);
  const parts = Object.entries(config as Record<string, unknown>).map(([k, v]) => {
    if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) return `${k}=${v.join(',')}`;
    return `${k}=${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`;
  });
  return parts.join(' · ') || '—';
}

/** The run's own model-table entries (config `models:`), if it had any. */
function runOverlay(config: unknown): ModelTableOverlay | undefined {
  const models = (config as { models?: ModelTableOverlay } | null)?.models;
  return models?.families?.length || models?.asOf ? models : undefined;
}

/** The model table's line: its date, and the entries this run's config overrode or added, by name. */
function modelTableLine(config: unknown): string {
  const line = `- Model table (prices, sampling, thinking per model): agents/core/models.json dated ${MODEL_TABLE_AS_OF}`;
  const overlay = runOverlay(config);
  if (!overlay) return line;
  const { overridden, added } = overlayEntries(overlay);
  const changes = [
    ...(overridden.length ? [`overrode ${overridden.join(', ')}`] : []),
    ...(added.length ? [`added ${added.join(', ')}`] : []),
  ];
  return `${line}; this run's config \`models:\`${overlay.asOf ? ` (dated ${overlay.asOf})` : ''} ${changes.join(' and ') || 'changed no entry'}`;
}

/** What one journal game is, where it is not a whole game (the descriptor's `unit`; none for a game no longer registered). */
const unitOf = (game: string): string | undefined => (gameIds().includes(game) ? gameDescriptor(game).unit : undefined);

function markdownHeader(s: TourneySummary): string {
  const agents = unique(s.tracks.flatMap((t) => t.agents));
  const games = s.tracks.reduce((n, t) => n + t.games, 0);
  const rounds = unique(s.tracks.map((t) => t.rounds));
  const roundText =
    rounds.length <= 1 ? String(rounds[0] ?? '—') : s.tracks.map((t) => `${trackName(t)} ${t.rounds}`).join(', ');
  return [
    `# CATArena tournament report: ${s.runId}`,
    '',
    ...(s.journal
      ? [s.journal.state === 'tampered' ? `- **${integrityLine(s.journal)}**` : `- ${integrityLine(s.journal)}`]
      : []),
    ...(s.incomplete ? [`- **${s.incomplete.line}**`] : []),
    `- Run directory: \`${s.runDir}\``,
    `- Started: ${s.createdAt} · ${s.incomplete ? 'report written' : 'finished'}: ${s.finishedAt}`,
    `- Agents (${agents.length}): ${agents.join(', ') || '—'}`,
    `- Games played: ${games}${s.tracks.length ? ` (${s.tracks.map((t) => `${trackName(t)}: ${t.games}${unitOf(t.game) ? ` ${unitOf(t.game)}` : ''}`).join(', ')})` : ''}`,
    `- Rule sets: ${s.tracks.map(trackName).join(', ') || '—'}`,
    `- Rounds: ${roundText}`,
    ...(s.modelExchanges ? [`- ${recordingsLine(s.modelExchanges)}`] : []),
    ...autoRepsLines(s),
    `- Forfeit policy in force: ${unique(s.tracks.map((t) => t.policy)).join(', ') || '—'}`,
    `- ${opponentCodeLine(s.config)}`,
    `- Config: ${configLine(s.config)}`,
    modelTableLine(s.config),
    '',
    'S = strategy coding (round-1 strength), L = global learning, G.A. = generalizability U (variant B¹ − standard B¹); ' +
      'see docs/metrics.md. Numbers have 3 decimals, 95% intervals in brackets, — = no data.',
    '',
    'The intervals cover the luck of the games these bots played (a smoothed bootstrap over games; docs/metrics.md "Intervals"), ' +
      'not a rerun in which the agents write other bots. "≈" marks an agent not separable from the next one at 95%.',
    ...buildAlarmLines(s).flatMap((line) => ['', `> **${line}**`]),
    ...llmPlayerMarkdown(s),
    ...(onePairPerCell(s)
      ? [
          '',
          '> Each pairing played one colour-swapped game pair: the intervals rest on the spread the rating model expects of such games. `--reps auto` plays more where it matters.',
        ]
      : []),
  ].join('\n');
}

/** With reps 'auto': per track, the games of the first pass, the batches after it, and why they stopped. */
function autoRepsLines(s: TourneySummary): string[] {
  const auto = s.tracks.filter((t) => t.autoReps);
  if (!auto.length) return [];
  return [
    '- Repetitions: auto (more game pairs, boards or table rounds where they narrow the metrics most; docs/metrics.md "Adaptive repetitions")',
    ...auto.map((t) => {
      const a = t.autoReps!;
      return `  - ${trackName(t)}: ${a.firstPass} games, then ${a.batches.length} batch(es) to ${a.games}; ${a.stopped ? `stopped: ${a.stopped.detail}` : 'not finished (the run was interrupted)'}`;
    }),
  ];
}

/** LLM-players: decisions asked of the model and random fallbacks, per track. */
function llmPlayerMarkdown(s: TourneySummary): string[] {
  const rows = llmPlayerRows(s.tracks);
  if (!rows.length) return [];
  return [
    '',
    '## LLM-player decisions',
    '',
    'Decisions the model was asked for (forced moves excluded) and how many were played as a random legal action after failed calls or answers.',
    '',
    mdTable(['Agent', 'Track', 'Decisions', 'Random fallbacks', 'Share'], rows, 2),
    ...sampling(s),
  ];
}

/** What each LLM-player's model was sent, beside what the run asked for (the model table decides). */
function sampling(s: TourneySummary): string[] {
  const lines = llmPlayerSamplingLines(s.tracks);
  return lines.length
    ? [
        '',
        `Sent to each model (what the model table, dated ${MODEL_TABLE_AS_OF}${runOverlay(s.config) ? ", with this run's `models:` entries over it," : ''} says it accepts) and asked by the run:`,
        '',
        ...lines.map((l) => `- ${l}`),
      ]
    : [];
}

/** True when no W cell holds more than one colour-swapped game pair (bootstrap intervals collapse). */
function onePairPerCell(s: TourneySummary): boolean {
  return s.tracks.length > 0 && s.tracks.every((t) => t.W.games.every((row) => row.every((n) => (n ?? 0) <= 2)));
}

function htmlAlarms(s: TourneySummary): string[] {
  return everyBuildFailed(s.tracks)
    ? ['Every build of every agent failed: no strategy of this run played, so its scores mean nothing.']
    : [
        ...agentsWithoutBot(s.tracks).map(
          (a) =>
            `Every build of agent ${a.agent} failed: its scores are those of a forfeiting stand-in. First reason: ${a.reason.slice(0, 200)}`,
        ),
        ...fallbackAlarmLines(s.tracks),
        ...budgetAlarmLines(s.tracks),
        ...integrityAlarmLines(s.tracks),
        ...sandboxAlarmLines(s.tracks),
      ];
}

function htmlHeader(s: TourneySummary): string {
  const agents = unique(s.tracks.flatMap((t) => t.agents));
  const games = s.tracks.reduce((n, t) => n + t.games, 0);
  const llmRows = llmPlayerRows(s.tracks);
  const auto = s.tracks.filter((t) => t.autoReps);
  return `<h1>CATArena tournament report: ${h(s.runId)}</h1>
${s.incomplete ? `<p class="warn" data-testid="incomplete"><strong>${h(s.incomplete.line)}</strong></p>` : ''}
${s.journal?.state === 'tampered' ? `<p class="warn" data-testid="journal-integrity"><strong>${h(integrityLine(s.journal))}</strong></p>` : ''}
<ul>
${s.journal && s.journal.state !== 'tampered' ? `<li data-testid="journal-integrity">${h(integrityLine(s.journal))}</li>` : ''}
<li>Run directory: <code>${h(s.runDir)}</code></li>
<li>Started ${h(s.createdAt)} · finished ${h(s.finishedAt)}</li>
<li>Agents (${agents.length}): ${h(agents.join(', '))}</li>
${s.modelExchanges ? `<li data-testid="model-exchanges">${h(recordingsLine(s.modelExchanges))}</li>` : ''}
<li>Games played: ${games} (${s.tracks.map((t) => `${h(trackName(t))}: ${t.games}`).join(', ')})</li>
<li>${h(opponentCodeLine(s.config))}</li>
${auto.map((t) => `<li>${h(trackName(t))}: --reps auto, ${t.autoReps!.firstPass} games then ${t.autoReps!.batches.length} batch(es) to ${t.autoReps!.games}; ${h(t.autoReps!.stopped?.detail ?? 'not finished')}</li>`).join('\n')}
</ul>
${htmlAlarms(s)
  .map((a) => `<p class="warn"><strong>${h(a)}</strong></p>`)
  .join('\n')}
${
  llmRows.length
    ? `<h2 id="llm-player">LLM-player decisions</h2>\n<p class="muted">Decisions the model was asked for (forced moves excluded) and how many were played as a random legal action.</p>\n${table(
        ['Agent', 'Track', 'Decisions', 'Random fallbacks', 'Share'],
        llmRows.map((r) => r.map(h)),
      )}`
    : ''
}
<p class="muted">S = strategy coding, L = global learning, C = counter-adaptation, SI = self-improvement, U = generalizability (variant B¹ − standard B¹); docs/metrics.md in the catarena repository defines them.
Brackets: 95% intervals for the luck of the games these bots played (a smoothed bootstrap), not for a rerun in which the agents write other bots. ≈: not separable from the next at 95%.</p>`;
}

export const headerSection: ReportSection = {
  markdown: ({ summary }) => [markdownHeader(summary)],
  html: ({ summary }) => htmlHeader(summary),
};
