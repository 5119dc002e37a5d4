// The evolution part of report.md: per track, each agent's bot from round to round (the diff's
// size beside ΔG, its code similarity to its own and the nearest rival's previous bot, what it
// looked at before writing), the similarity flags, and what the bots are made of over the rounds.
import { mdTable } from '../markdown-format.ts';
import { mainDepth, type BotProfile } from './bot-profile.ts';
import type { AgentReads } from './agent-reads.ts';
import type { EvolutionStep, EvolutionTrack } from './evolution.ts';

const signed = (x: number | null, digits = 3) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`);
const share = (x: number | null) => (x === null ? '—' : x.toFixed(2));

/** "+12/−3 lines, 2 files changed, 1 added" for a step's diff. */
export function diffSummary(s: EvolutionStep): string {
  if (!s.diff) return `new: ${s.profile.files} files, ${s.profile.linesOfCode} lines of code`;
  const f = s.diff.files;
  if (!f.added && !f.removed && !f.changed) return 'unchanged';
  const parts = [`+${s.diff.lines.added}/−${s.diff.lines.removed} lines`];
  if (f.changed) parts.push(`${f.changed} changed`);
  if (f.added) parts.push(`${f.added} added`);
  if (f.removed) parts.push(`${f.removed} removed`);
  return parts.join(', ');
}

/** What an agent looked at before its first write, in a few words (Table 12 of the paper, one cell). */
export function readsSummary(r: AgentReads | null, self: string): string {
  if (!r) return 'no record';
  const bits: string[] = [];
  const files = (xs: string[]) =>
    xs.includes('.') ? 'all' : xs.slice(0, 4).join(', ') + (xs.length > 4 ? ` +${xs.length - 4}` : '');
  if (r.logs.length) bits.push(`reports: ${files(r.logs)}`);
  if (r.listedAgents) bits.push('listed the agents');
  if (r.own.length) bits.push(`own code: ${files(r.own)}`);
  for (const [agent, paths] of Object.entries(r.rivals)) bits.push(`${agent}: ${files(paths)}`);
  const copied = r.copied.filter((a) => a !== self);
  if (copied.length) bits.push(`copied ${copied.join(', ')}'s folder`);
  if (r.copied.includes(self)) bits.push('copied its own folder');
  if (!bits.length) bits.push(r.task.length ? 'task files only' : 'nothing of the previous round');
  return `${bits.join('; ')} (${r.toolCalls} calls${r.firstWrite ? `, first write at call ${r.firstWrite}` : ''})`;
}

function techniques(p: BotProfile): string[] {
  return p.techniques.map((t) => t.label);
}

/** Per agent, the profile from round to round: lines of code, files, depth constants, techniques gained and lost. */
function profileRows(e: EvolutionTrack): string[][] {
  return e.agents.map((agent) => {
    const steps = e.steps.filter((s) => s.agent === agent);
    const loc = steps.map((s) => String(s.profile.linesOfCode)).join(' → ');
    const files = steps.map((s) => String(s.profile.files)).join(' → ');
    const depthText = steps.map((s) => mainDepth(s.profile) ?? '—').join(' → ');
    const first = steps[0] ? techniques(steps[0].profile) : [];
    const changes: string[] = [];
    for (let k = 1; k < steps.length; k++) {
      const before = techniques(steps[k - 1]!.profile);
      const now = techniques(steps[k]!.profile);
      const gained = now.filter((t) => !before.includes(t));
      const lost = before.filter((t) => !now.includes(t));
      if (gained.length || lost.length)
        changes.push(`r${steps[k]!.round}: ${[...gained.map((t) => `+${t}`), ...lost.map((t) => `−${t}`)].join(', ')}`);
    }
    const langs = [...new Set(steps.flatMap((s) => Object.keys(s.profile.languages)))].join(', ');
    const deps = [...new Set(steps.flatMap((s) => s.profile.dependencies))];
    return [
      agent,
      loc,
      files,
      langs || '—',
      deps.slice(0, 6).join(', ') + (deps.length > 6 ? ` +${deps.length - 6}` : '') || '—',
      depthText,
      [first.join(', ') || '—', ...changes].join('; '),
    ];
  });
}

export function trackEvolutionMarkdown(e: EvolutionTrack): string {
  const rows = e.steps.map((s) => [
    s.agent,
    String(s.round),
    s.status === 'ok' ? signed(s.deltaG) : `${signed(s.deltaG)} (failed build)`,
    diffSummary(s),
    share(s.own),
    s.nearest ? `${s.nearest.id} ${share(s.nearest.value)}` : '—',
    readsSummary(s.reads, s.agent),
  ]);
  const borrowed = e.flags.filter((f) => f.borrowed);
  const shared = e.flags.length - borrowed.length;
  const flagRows = borrowed.map((f) => [
    f.id,
    f.rivalId,
    share(f.value),
    share(f.before),
    signed(f.rise, 2),
    share(f.own),
    signed(f.deltaG),
  ]);
  return [
    `### ${e.track}`,
    '',
    mdTable(
      [
        'Agent',
        'Round',
        'ΔG',
        'Change from its previous bot',
        'Sim. to own previous',
        'Most similar rival bot (previous round)',
        'What it looked at first',
      ],
      rows,
      2,
    ),
    '',
    `Similarity flags (sim ≥ ${e.settings.threshold} to a rival's previous bot, at least ${e.settings.rise} above the agent's own previous bot's similarity to it):`,
    '',
    flagRows.length
      ? mdTable(['Bot', 'Rival bot', 'Sim.', 'Before', 'Rise', 'Sim. to own previous', 'ΔG'], flagRows)
      : 'None.',
    ...(shared
      ? [
          '',
          `${shared} more pair(s) at or above ${e.settings.threshold} were already as close a round earlier (code the bots share from the start), not flagged.`,
        ]
      : []),
    '',
    'What the bots are made of (techniques are keyword heuristics, not an analysis):',
    '',
    mdTable(
      ['Agent', 'Lines of code', 'Files', 'Languages', 'Imports', 'Search depth', 'Techniques (then gained +, lost −)'],
      profileRows(e),
    ),
  ].join('\n');
}

export function evolutionMarkdown(tracks: readonly EvolutionTrack[]): string {
  if (!tracks.length) return '';
  return [
    '## Strategy evolution: what the agents changed, read and borrowed',
    '',
    'Per agent and round: ΔG = change of its global performance G from its previous round; the change of its bot (files and lines, ' +
      'generated and vendored files skipped; the full diffs are tracks/<track>/round_<n>/strategies/<agent>.diff); code similarity ' +
      "(winnowed token fingerprints, MOSS-style, asymmetric: the share of this bot's fingerprints found in the other; docs/evolution.md) " +
      "to its own previous bot and to the nearest rival's previous bot; and what it looked at before its first write to its bot folder, " +
      'from its transcript or tool log. Similarity matrices per round are in tracks/<track>/similarity.json and report.html.',
    '',
    ...tracks.map(trackEvolutionMarkdown).join('\n\n').split('\n'),
    '',
  ].join('\n');
}
